import { Module } from '@nestjs/common';
import { WalCheckpointer } from './wal-checkpointer.js';

/** For the long-running server; the command line's short runs leave checkpoints to SQLite. */
@Module({ providers: [WalCheckpointer] })
export class WalCheckpointModule {}
