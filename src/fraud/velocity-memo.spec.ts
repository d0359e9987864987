import { VelocityMemo } from './velocity-memo.js';

describe(VelocityMemo.name, () => {
  it('spares the count while its own sends have room under the threshold, then counts again', () => {
    const memo = new VelocityMemo();
    expect(memo.recall('k', 0)).toBeUndefined();
    memo.remember('k', 1, 3, 0);
    expect(memo.recall('k', 1)).toBe('under');
    memo.sent('k', 1);
    expect(memo.recall('k', 2)).toBe('under');
    memo.sent('k', 2);
    expect(memo.recall('k', 3)).toBeUndefined();
  });

  it('knows a key over its threshold for five seconds', () => {
    const memo = new VelocityMemo();
    memo.remember('k', 3, 3, 0);
    expect(memo.recall('k', 4_999)).toBe('over');
    expect(memo.recall('k', 5_000)).toBeUndefined();
  });
});
