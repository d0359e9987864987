import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Envelope } from '../common/envelope/envelope.js';
import type { Sql } from '../database/sql.js';
import type { IdempotencyRepository } from './idempotency.repository.js';

/**
 * The claim of one Idempotency-Key, handed to the route's use case so that it
 * keeps its success answer in its own transaction: a request that committed
 * is never run twice, even if the process dies before answering.
 */
export class IdempotencyScope {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly box: SecretBox,
    readonly accountId: string,
    readonly key: string,
  ) {}

  recordSuccess(sql: Sql, data: unknown): Promise<void> {
    return this.record(sql, { status: 200, message: '', data });
  }

  /** Answers are sealed: a send's answer holds its code. */
  record(sql: Sql, envelope: Envelope): Promise<void> {
    return this.records.complete(sql, this.accountId, this.key, { status: envelope.status, sealed: this.box.seal(JSON.stringify(envelope)) });
  }
}
