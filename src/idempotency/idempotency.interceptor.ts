import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { Clock } from '../common/clock.js';
import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Envelope } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import { Database } from '../database/database.js';
import { fingerprintOf } from './canonical-json.js';
import { IdempotencyScope } from './idempotency-scope.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IDEMPOTENCY_BOX } from './idempotency-box.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
const IN_FLIGHT_MS = 60_000;
const KEPT_MS = 24 * 3600_000;
/** Answers a retry may replay; 429 and 5xx are not kept, so the client can try again. */
const KEPT_STATUSES = new Set([200, 400, 402]);

export interface IdempotentRequest {
  idempotency?: IdempotencyScope;
}

/**
 * `Idempotency-Key`: the same key with the same body within 24 h replays the
 * first answer; with another body it is refused (422); while the first request
 * runs, a second one is refused (409).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly database: Database,
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
    @Inject(IDEMPOTENCY_BOX) private readonly box: SecretBox,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest & IdempotentRequest & { user: Principal }>();
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return next.handle();
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw ApiError.invalidField('Idempotency-Key', 'doit faire de 1 à 255 caractères ASCII imprimables');
    }

    const { accountId } = request.user;
    const now = this.clock.now();
    const claim = await this.database.transaction((sql) =>
      this.records.claim(
        sql,
        accountId,
        header,
        fingerprintOf(request.body),
        now,
        new Date(now.getTime() + IN_FLIGHT_MS),
        new Date(now.getTime() + KEPT_MS),
      ),
    );
    switch (claim.kind) {
      case 'replay': {
        const answer = JSON.parse(this.box.open(claim.answer.sealed)) as Envelope;
        if (answer.status === 200) return of(answer.data);
        throw new ApiError(answer);
      }
      case 'mismatch':
        throw new ApiError({
          status: 422,
          message: 'cle_idempotence_reutilisee',
          errors: ['Idempotency-Key: déjà utilisée avec un autre corps de requête'],
        });
      case 'in-flight':
        throw new ApiError({
          status: 409,
          message: 'requete_en_cours',
          errors: ['Idempotency-Key: une requête avec cette clé est en cours'],
        });
    }

    const scope = new IdempotencyScope(this.records, this.box, accountId, header);
    request.idempotency = scope;
    return next.handle().pipe(
      catchError((error: unknown) => from(this.settleFailure(scope, error)).pipe(mergeMap(() => throwError(() => error)))),
    );
  }

  private async settleFailure(scope: IdempotencyScope, error: unknown): Promise<void> {
    if (error instanceof ApiError && KEPT_STATUSES.has(error.envelope.status)) {
      await this.database.transaction((sql) => scope.record(sql, error.envelope));
    } else {
      await this.database.transaction((sql) => this.records.release(sql, scope.accountId, scope.key));
    }
  }
}
