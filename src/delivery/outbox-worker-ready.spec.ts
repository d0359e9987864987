import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { OutboxWorker } from './outbox.worker.js';

/** An OutboxWorker whose only live parts are the provider's ready signal and a database that fails. */
function workerWithFailingDatabase(): { ready: () => void; woken: jest.Mock } {
  let ready: () => void = () => undefined;
  const woken = jest.fn();
  const database = { run: () => Promise.reject(new Error('Deadlock found when trying to get lock')) };
  const jobs = { register: () => undefined, wake: woken };
  const smsProvider = { onReady: (listener: () => void) => (ready = listener) };
  const none = {} as never;
  new OutboxWorker(
    database as never,
    none,
    none,
    none,
    none,
    { now: () => new Date() } as never,
    jobs as never,
    smsProvider as never,
    none,
    none,
    none,
    none,
    { outboxLeaseSeconds: 60 } as never,
    none,
  );
  return { ready: () => ready(), woken };
}

describe('the outbox when a connection binds', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failure to expedite the waiting messages instead of leaving the rejection to end the process', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { ready, woken } = workerWithFailingDatabase();
      ready();
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(unhandled).not.toHaveBeenCalled();
      expect(warned).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), expect.stringContaining('not expedited'));
      expect(woken).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
