/**
 * Who takes the MySQL pool's next connection. A unit of work enters before
 * it asks the pool for a connection and leaves once it has given it back, so
 * that no more units hold one than the pool has. Urgent units (UnitOptions:
 * an OTP's, the look-ups requests wait on) go before the others waiting, and
 * the others hold at most the pool less a fifth of it (one of 2–9
 * connections, two of 10): an OTP that comes while bulk sends hold the pool
 * finds a connection free, or waits for the next one given back, not for
 * every bulk send queued before it. Once as many connections as the pool has
 * have gone to urgent units in a row while the others could have taken them,
 * the next is the others', so that none waits for ever (a lease's renewal
 * among them).
 */
export class ConnectionGate {
  private held = 0;
  private heldByOthers = 0;
  /** Connections given to urgent units in a row while the others could have taken them. */
  private passedOver = 0;
  private readonly urgent: Array<() => void> = [];
  private readonly others: Array<() => void> = [];
  /** The most connections the units that are not urgent hold at once. */
  private readonly othersMost: number;

  constructor(private readonly size: number) {
    this.othersMost = size < 2 ? size : size - Math.max(1, Math.floor(size / 5));
  }

  /** Units waiting for a connection. */
  get waiting(): number {
    return this.urgent.length + this.others.length;
  }

  /** Resolves once the unit may ask the pool for a connection. */
  enter(urgent: boolean): Promise<void> {
    const free = this.held < this.size;
    if (urgent ? free && this.urgent.length === 0 : free && this.others.length === 0 && this.heldByOthers < this.othersMost) {
      this.take(urgent);
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.urgent : this.others).push(resolve));
  }

  leave(urgent: boolean): void {
    this.held--;
    if (!urgent) this.heldByOthers--;
    while (this.held < this.size) {
      const othersMay = this.others.length > 0 && this.heldByOthers < this.othersMost;
      const urgentNext = this.urgent.length > 0 && !(othersMay && this.passedOver >= this.size);
      if (!urgentNext && !othersMay) return;
      if (!urgentNext) this.passedOver = 0;
      else if (othersMay) this.passedOver++;
      this.take(urgentNext);
      (urgentNext ? this.urgent : this.others).shift()!();
    }
  }

  private take(urgent: boolean): void {
    this.held++;
    if (!urgent) this.heldByOthers++;
  }
}
