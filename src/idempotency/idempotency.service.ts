import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Envelope } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import { Database } from '../database/database.js';
import { IdempotencyScope } from './idempotency-scope.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IDEMPOTENCY_BOX } from './idempotency-box.js';

const IN_FLIGHT_MS = 60_000;
const KEPT_MS = 24 * 3600_000;
/** Answers a retry may replay; 429 and 5xx are not kept, so the client can try again. */
const KEPT_STATUSES = new Set([200, 400, 402]);

/** A request's `Idempotency-Key` and the fingerprint of its body (see IdempotencyKey). */
export interface IdempotentRequest {
  key: string;
  fingerprint: string;
}

/**
 * `Idempotency-Key`: the same key with the same body within 24 h replays the
 * first answer; with another body it is refused (422); while the first request
 * runs, a second one is refused (409).
 */
@Injectable()
export class Idempotency {
  constructor(
    private readonly database: Database,
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
    @Inject(IDEMPOTENCY_BOX) private readonly box: SecretBox,
  ) {}

  /**
   * Runs `work` once per key: it gets the key's claim, in which it keeps its
   * success answer inside its own transaction. Without a key it simply runs.
   */
  async once<T>(accountId: string, request: IdempotentRequest | undefined, work: (scope?: IdempotencyScope) => Promise<T>): Promise<T> {
    if (!request) return work();
    const now = this.clock.now();
    const claim = await this.database.transaction((sql) =>
      this.records.claim(
        sql,
        accountId,
        request.key,
        request.fingerprint,
        now,
        new Date(now.getTime() + IN_FLIGHT_MS),
        new Date(now.getTime() + KEPT_MS),
      ),
    );
    switch (claim.kind) {
      case 'replay': {
        const answer = JSON.parse(this.box.open(claim.answer.sealed)) as Envelope<T>;
        if (answer.status === 200) return answer.data as T;
        throw new ApiError(answer);
      }
      case 'mismatch':
        throw new ApiError({
          status: 422,
          message: 'cle_idempotence_reutilisee',
          errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'],
        });
      case 'in-flight':
        throw new ApiError({
          status: 409,
          message: 'requete_en_cours',
          errors: ['Idempotency-Key: une requête avec cette clé est en cours'],
        });
    }

    const scope = new IdempotencyScope(this.records, this.box, accountId, request.key);
    try {
      return await work(scope);
    } catch (error) {
      await this.settleFailure(scope, error);
      throw error;
    }
  }

  private async settleFailure(scope: IdempotencyScope, error: unknown): Promise<void> {
    if (error instanceof ApiError && KEPT_STATUSES.has(error.envelope.status)) {
      await this.database.transaction((sql) => scope.record(sql, error.envelope));
    } else {
      await this.database.transaction((sql) => this.records.release(sql, scope.accountId, scope.key));
    }
  }
}
