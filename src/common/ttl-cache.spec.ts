import { TtlCache } from './ttl-cache.js';

describe(TtlCache.name, () => {
  it('gives a value until its time-to-live has passed', () => {
    const cache = new TtlCache<string>(5000, 10);
    cache.set('key', 'value', 1000);
    expect(cache.get('key', 5999)).toBe('value');
    expect(cache.get('key', 6000)).toBeUndefined();
  });

  it('keeps a value for less when it lapses sooner, never for more', () => {
    const cache = new TtlCache<string>(5000, 10);
    cache.set('short', 'value', 1000, 2000);
    cache.set('long', 'value', 1000, 60_000);
    expect([cache.get('short', 2999), cache.get('short', 3000)]).toEqual(['value', undefined]);
    expect([cache.get('long', 5999), cache.get('long', 6000)]).toEqual(['value', undefined]);
  });

  it('forgets an expired value', () => {
    const cache = new TtlCache<string>(5000, 10);
    cache.set('key', 'value', 0);
    expect(cache.get('key', 5000)).toBeUndefined();
    expect(cache.get('key', 0)).toBeUndefined();
  });

  it('restarts the time-to-live when a value is set again', () => {
    const cache = new TtlCache<string>(5000, 10);
    cache.set('key', 'old', 0);
    cache.set('key', 'new', 4000);
    expect(cache.get('key', 8999)).toBe('new');
  });

  it('evicts the oldest entry when full', () => {
    const cache = new TtlCache<string>(5000, 2);
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 1);
    cache.set('c', 'C', 2);
    expect([cache.get('a', 3), cache.get('b', 3), cache.get('c', 3)]).toEqual([undefined, 'B', 'C']);
  });

  it('drops its older half whole when full, keeping at most its capacity', () => {
    const cache = new TtlCache<number>(5000, 4);
    for (let n = 0; n < 7; n++) cache.set(`k${n}`, n, 0);
    // generations of two: {k4, k5} and {k6}
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => cache.get(`k${n}`, 1))).toEqual([undefined, undefined, undefined, undefined, 4, 5, 6]);
  });

  it('gives the value set last when an older generation holds an earlier one, and deletes both', () => {
    const cache = new TtlCache<string>(5000, 4);
    cache.set('key', 'old', 0);
    cache.set('other', 'value', 0);
    cache.set('third', 'value', 0);
    cache.set('key', 'new', 1);
    expect(cache.get('key', 2)).toBe('new');
    cache.delete('key');
    expect(cache.get('key', 2)).toBeUndefined();
  });

  it('deletes an entry', () => {
    const cache = new TtlCache<string>(5000, 10);
    cache.set('key', 'value', 0);
    cache.delete('key');
    expect(cache.get('key', 1)).toBeUndefined();
  });
});
