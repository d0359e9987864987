import { Batches } from './batches.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Batches', () => {
  it('hands over what comes in one turn together, what comes meanwhile in the next batch, and settles each add with its batch', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const handler = new Batches<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 10);

    const first = [handler.add(1), handler.add(2)];
    await turn();
    const second = [handler.add(3), handler.add(4)];
    release();
    await Promise.all([...first, ...second]);

    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('hands over no more than its batch size at once', async () => {
    const batches: number[][] = [];
    const handler = new Batches<number>(async (items) => void batches.push(items), 2);

    await Promise.all([1, 2, 3, 4, 5].map((item) => handler.add(item)));

    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('hands a failed batch over again item by item, so that only the item that fails is refused', async () => {
    const batches: number[][] = [];
    const handler = new Batches<number>(async (items) => {
      batches.push(items);
      if (items.includes(2)) throw new Error(`cannot take ${items.join(', ')}`);
    }, 10);

    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => handler.add(item)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('cannot take 2'));
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('takes new items once a batch has failed', async () => {
    let failing = true;
    const handler = new Batches<number>(async () => {
      if (failing) throw new Error('database gone');
    }, 10);

    await expect(handler.add(1)).rejects.toThrow('database gone');
    failing = false;
    await expect(handler.add(2)).resolves.toBeUndefined();
  });
});
