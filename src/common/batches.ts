interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Hands items to `handle` in batches as they come, each `add` settling with
 * its item's batch: the first waits for the end of the event-loop turn, so
 * that those that come together go together; the next ones wait for the batch
 * being handled, and go in the next. A batch that fails is handed over again
 * item by item, so that an item the handler cannot take fails alone.
 */
export class Batches<T> {
  private waiting: Array<Waiting<T>> = [];
  private running = false;

  constructor(
    private readonly handle: (items: T[]) => Promise<void>,
    private readonly maxSize: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.running) return;
      this.running = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxSize);
      try {
        await this.handle(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const waiting of batch) await this.handle([waiting.item]).then(waiting.resolve, waiting.reject);
      }
    }
    this.running = false;
  }
}
