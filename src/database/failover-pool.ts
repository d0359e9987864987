import type { Pool, PoolConnection } from 'mysql2';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable.js';

type ConnectionCallback = (error: NodeJS.ErrnoException | null, connection?: PoolConnection) => void;

/**
 * Pools on several servers (the nodes of a Galera cluster), one in use at a
 * time: connections come from the first that answers, and keep coming from it
 * until it stops answering; then from the next one that does, in the order
 * given, round to the start. While none answers, the error of the last one
 * tried is the caller's (a 503 for a request). Connections already open to a
 * server that went away fail their next statement, as with a single server.
 */
export class FailoverPool {
  private current = 0;

  constructor(private readonly pools: readonly Pool[]) {}

  /** The pool connections come from now (for the pool's gauges). */
  get active(): Pool {
    return this.pools[this.current]!;
  }

  getConnection(callback: ConnectionCallback): void {
    this.tryFrom(this.current, 0, callback);
  }

  end(callback: (error: Error | null) => void): void {
    let left = this.pools.length;
    for (const pool of this.pools) pool.end(() => --left === 0 && callback(null));
  }

  private tryFrom(index: number, tried: number, callback: ConnectionCallback): void {
    this.pools[index]!.getConnection((error, connection) => {
      if (!error) {
        this.current = index;
        callback(null, connection);
      } else if (tried + 1 < this.pools.length && isDatabaseUnavailable(error)) {
        this.tryFrom((index + 1) % this.pools.length, tried + 1, callback);
      } else {
        callback(error);
      }
    });
  }
}
