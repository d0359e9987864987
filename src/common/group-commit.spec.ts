import { GroupCommit } from './group-commit.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('commits what comes in one turn together, and what comes during a commit in the next group', async () => {
    const groups: number[][] = [];
    let release: () => void = () => undefined;
    const group = new GroupCommit<number>(async (items) => {
      groups.push(items);
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });

    group.add(1);
    group.add(2);
    await turn();
    group.add(3);
    group.add(4);
    release();
    await group.drained();

    expect(groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('commits nothing more after a failed commit, and reports the failure to whoever waits', async () => {
    const groups: number[][] = [];
    const group = new GroupCommit<number>(async (items) => {
      groups.push(items);
      throw new Error('database gone');
    });

    group.add(1);
    await expect(group.drained()).rejects.toThrow('database gone');
    group.add(2);
    await expect(group.drained()).rejects.toThrow('database gone');
    expect(groups).toEqual([[1]]);
  });
});
