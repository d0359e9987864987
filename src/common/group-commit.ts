/**
 * Hands items to `commit` in groups as they come: the first waits for the end
 * of the event-loop turn, so that those that come together go together; the
 * next ones wait for the group being committed, and go in the next. After a
 * failed commit nothing more is committed, and `drained` rejects with it.
 */
export class GroupCommit<T> {
  private waiting: T[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly commit: (items: T[]) => Promise<void>) {}

  add(item: T): void {
    this.waiting.push(item);
    if (this.running) return;
    this.running = this.run();
    // a failure is reported by `drained`
    this.running.catch(() => undefined);
  }

  /** Resolves once every item added so far is committed. */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const items = this.waiting;
      this.waiting = [];
      await this.commit(items);
    }
    this.running = null;
  }
}
