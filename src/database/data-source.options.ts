import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/database.config.js';
import { mysqlDriver } from './mysql-driver.js';
import { InitialSchema1763769600000 } from './migrations/1763769600000-initial-schema.js';
import { BalanceAlert1764700000000 } from './migrations/1764700000000-balance-alert.js';
import { BalanceNeverNegative1764028800000 } from './migrations/1764028800000-balance-never-negative.js';
import { AddressBook1764300000000 } from './migrations/1764300000000-address-book.js';
import { MessageCountry1764800000000 } from './migrations/1764800000000-message-country.js';
import { BulkSms1764500000000 } from './migrations/1764500000000-bulk-sms.js';
import { Hlr1764900000000 } from './migrations/1764900000000-hlr.js';
import { InboundSms1764600000000 } from './migrations/1764600000000-inbound-sms.js';
import { OutboxLanes1764500000001 } from './migrations/1764500000001-outbox-lanes.js';
import { SenderReview1764400000000 } from './migrations/1764400000000-sender-review.js';
import { Campaigns1765000000000 } from './migrations/1765000000000-campaigns.js';
import { UsageCoveringIndex1765100000000 } from './migrations/1765100000000-usage-covering-index.js';
import { Webhooks1764200000000 } from './migrations/1764200000000-webhooks.js';
import { RecipientFailures1765200000000 } from './migrations/1765200000000-recipient-failures.js';
import { ImportEncoding1765350000001 } from './migrations/1765350000001-import-encoding.js';
import { OperatorKeys1765300000000 } from './migrations/1765300000000-operator-keys.js';
import { OtpList1765300000001 } from './migrations/1765300000001-otp-list.js';
import { LogReceipts1765300000002 } from './migrations/1765300000002-log-receipts.js';
import { OutboxChunks1765400000000 } from './migrations/1765400000000-outbox-chunks.js';
import { SmsRouting1765500000000 } from './migrations/1765500000000-sms-routing.js';
import { OtpFraudGuard1765600000000 } from './migrations/1765600000000-otp-fraud-guard.js';
import { FraudConversionTally1765700000000 } from './migrations/1765700000000-fraud-conversion-tally.js';
import { OtpPrefixBackfill1765800000000 } from './migrations/1765800000000-otp-prefix-backfill.js';

export const MIGRATIONS = [InitialSchema1763769600000, BalanceNeverNegative1764028800000, Webhooks1764200000000, AddressBook1764300000000, SenderReview1764400000000, BulkSms1764500000000, OutboxLanes1764500000001, InboundSms1764600000000, BalanceAlert1764700000000, MessageCountry1764800000000, Hlr1764900000000, Campaigns1765000000000, UsageCoveringIndex1765100000000, RecipientFailures1765200000000, OperatorKeys1765300000000, OtpList1765300000001, LogReceipts1765300000002, ImportEncoding1765350000001, OutboxChunks1765400000000, SmsRouting1765500000000, OtpFraudGuard1765600000000, FraudConversionTally1765700000000, OtpPrefixBackfill1765800000000];

/**
 * TypeORM options for the configured database; the schema comes from migrations
 * only. Entities are not listed here: each feature module registers its own
 * (`TypeOrmModule.forFeature`), and the running service loads those
 * (`autoLoadEntities`); migrations need none.
 */
export function dataSourceOptions(config: DatabaseConfig): DataSourceOptions {
  const common = { migrations: MIGRATIONS, synchronize: false, logging: false } as const;
  if (config.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      driver: mysqlDriver(config.hosts),
      host: config.hosts[0]!.host,
      port: config.hosts[0]!.port,
      username: config.user ?? undefined,
      password: config.password ?? undefined,
      database: config.name,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: 3000,
      // lets a unit's writes share a round trip (see RunnerStatements); every value is bound, never spliced
      multipleStatements: true,
      poolSize: config.poolSize,
      extra: { enableKeepAlive: true, maxIdle: config.poolSize },
    };
  }
  if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.path,
    enableWAL: true,
    prepareDatabase: (db: { pragma: (statement: string) => unknown }) => {
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // 8 MB: the upper levels of every index fit, and the operating system caches the rest of the file
      db.pragma('cache_size = -8192');
      // each unit of a group commit runs under a savepoint, whose journal would spill to a temporary file
      // once the batch has touched 64 KB of pages, and be written there page by page
      db.pragma('temp_store = MEMORY');
    },
  };
}
