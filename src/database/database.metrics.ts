import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { Metrics } from '../metrics/metrics.js';
import { Database } from './database.js';

/** mysql2's pool keeps its connections in these (undocumented, long-stable) lists. */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/**
 * The MySQL connection pool on /metrics: its size, connections in use, and
 * units waiting for one (at its gate, or in the pool); and the units of work
 * retried after a deadlock or a lost Galera certification.
 */
@Injectable()
export class DatabaseMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly database: Database,
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
  ) {}

  onModuleInit(): void {
    if (this.dataSource.options.type !== 'mysql') return;
    // a FailoverPool's gauges are those of the pool in use
    const pool = (): Mysql2Pool => {
      const driverPool = (this.dataSource.driver as unknown as { pool?: Mysql2Pool & { active?: Mysql2Pool } }).pool;
      return driverPool?.active ?? driverPool ?? {};
    };
    this.metrics.gauge('db_pool_size', 'Connections the pool may open', (set) => set(this.config.poolSize));
    this.metrics.gauge('db_pool_connections', 'Open pooled connections, by state', (set) => {
      const { _allConnections: all, _freeConnections: free } = pool();
      if (!all || !free) return;
      set(all.length - free.length, { state: 'in_use' });
      set(free.length, { state: 'idle' });
    }, ['state']);
    const database = this.database;
    new Counter({
      name: 'db_transaction_retries_total',
      help: 'Units of work run again after losing a deadlock or a certification conflict',
      registers: [this.metrics.registry],
      collect() {
        this.reset();
        this.inc(database.retriedUnits);
      },
    });
    this.metrics.gauge('db_pool_waiting', 'Units of work waiting for a connection', (set) =>
      set(database.gate.waiting + (pool()._connectionQueue?.length ?? 0)),
    );
  }
}
