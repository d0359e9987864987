import { ChunkChanges, OutboxChunk, type ChunkMessage, type MessageProgress, type RetryProgress } from './outbox-chunk.js';

const NOW = new Date('2026-03-01T10:00:00Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const retry = (seconds: number, attempts = 1): RetryProgress => ({ attempts, retryAt: at(seconds).toISOString(), resume: null, error: 'occupé' });
const messages = (count: number): ChunkMessage[] =>
  Array.from({ length: count }, (_, n) => ({ recordId: `m${n}`, amount: 250, payload: { from: 'SHOP', to: `+22507000000${n}`, text: 'Bonjour', secrets: [] } }));
const chunkOf = (progress: MessageProgress[]) => new OutboxChunk(7, messages(progress.length), progress);

describe('a chunk of the bulk lane', () => {
  it('hands over the messages never tried and those whose retry is due, never one done', () => {
    expect(chunkOf([null, 'done', null]).due(NOW, NOW)).toEqual([0, 2]);
    expect(chunkOf(['done', retry(-1), retry(30), 'done']).due(NOW, at(-1))).toEqual([1]);
  });

  it('hands over every message left when its row was made due before any retry: expedited, or a claim cut short', () => {
    expect(chunkOf([retry(20), 'done', retry(30)]).due(NOW, NOW)).toEqual([0, 2]);
    expect(chunkOf([null, retry(5), 'done']).due(NOW, at(-1))).toEqual([0, 1]);
  });

  it('is due again at its first message left, at once for one never tried', () => {
    expect(chunkOf([retry(30), 'done', retry(10)]).nextDue(NOW)).toEqual(at(10));
    expect(chunkOf([retry(30), null]).nextDue(NOW)).toEqual(NOW);
  });

  it('counts only the messages not done as left', () => {
    expect(chunkOf(['done', retry(3), null, 'done']).state(NOW, true)).toEqual({
      id: 7,
      progress: ['done', retry(3), null, 'done'],
      left: 2,
      releaseAt: NOW,
      error: null,
    });
    expect(chunkOf(['done', 'done']).state(NOW, true).releaseAt).toBeNull();
  });
});

describe('the changes a unit of work makes to claimed chunks', () => {
  it('keeps the chunk while messages of its claim are in hand, and gives it back once all are settled', () => {
    const chunk = chunkOf([null, null, null]);
    chunk.outstanding = 3;

    const first = new ChunkChanges();
    first.done({ chunk, index: 1 });
    expect(first.states(NOW)).toEqual([{ id: 7, progress: [null, 'done', null], left: 2, releaseAt: null, error: null }]);
    first.commit();

    const second = new ChunkChanges();
    second.done({ chunk, index: 0 });
    second.retry({ chunk, index: 2 }, retry(8));
    expect(second.states(NOW)).toEqual([{ id: 7, progress: ['done', 'done', retry(8)], left: 1, releaseAt: at(8), error: 'occupé' }]);
    second.commit();
    expect(chunk.progress).toEqual(['done', 'done', retry(8)]);
    expect(chunk.outstanding).toBe(0);
  });

  it('leaves the chunk as it was until the unit commits', () => {
    const chunk = chunkOf([null, null]);
    chunk.outstanding = 2;
    const rolledBack = new ChunkChanges();
    rolledBack.done({ chunk, index: 0 });
    rolledBack.states(NOW);

    expect(chunk.progress).toEqual([null, null]);
    expect(chunk.outstanding).toBe(2);
    const again = new ChunkChanges();
    again.done({ chunk, index: 0 });
    again.done({ chunk, index: 1 });
    expect(again.states(NOW)).toEqual([{ id: 7, progress: ['done', 'done'], left: 0, releaseAt: null, error: null }]);
  });
});
