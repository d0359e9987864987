import { Module } from '@nestjs/common';
import { DatabaseMetrics } from './database.metrics.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/** What the long-running server adds to the database: SQLite's log checkpoints on a thread of their own, the pool's gauges; the command line's short runs need neither. */
@Module({ providers: [WalCheckpointer, DatabaseMetrics] })
export class DatabaseServerModule {}
