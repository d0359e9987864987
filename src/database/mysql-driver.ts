import mysql, { type Pool, type PoolConnection, type PoolOptions } from 'mysql2';
import type { DatabaseHost } from '../config/database.config.js';
import { FailoverPool } from './failover-pool.js';

/**
 * mysql2 with every pooled connection at READ COMMITTED, and, on a Galera
 * node, with causal reads. A unit of work that waited for a row lock then reads
 * what was committed meanwhile (the sends in a recipient's window, the balance
 * a failed debit saw), where REPEATABLE READ would show the snapshot of its
 * first read. With `wsrep_sync_wait = 1` a read on one node waits until that
 * node has applied every write the cluster committed before it: a code sent
 * through one instance is there to verify through another at once. Servers
 * without Galera ignore the setting (wsrep off) or refuse it (no such
 * variable), and the refusal is ignored.
 *
 * With several hosts, the pool is a FailoverPool over one pool per host.
 */
export function mysqlDriver(hosts: readonly DatabaseHost[]) {
  return {
    ...mysql,
    createPool(options: PoolOptions): Pool | FailoverPool {
      if (hosts.length <= 1) return createSessionPool(options);
      return new FailoverPool(hosts.map(({ host, port }) => createSessionPool({ ...options, host, port })));
    },
  };
}

function createSessionPool(options: PoolOptions): Pool {
  const pool = mysql.createPool(options);
  pool.on('connection', (connection: PoolConnection) => {
    connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    connection.query('SET SESSION wsrep_sync_wait = 1', () => undefined);
  });
  return pool;
}
