import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import { BillingService } from '../billing/billing.service.js';
import { isOverdraft, LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { parsePhone } from '../common/recipient.js';
import { hlrConfig, type HlrConfig } from '../config/hlr.config.js';
import { webhookConfig, type WebhookConfig } from '../config/webhook.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { URL_GUARD, type UrlGuard } from '../webhook/url-guard.js';
import type { HlrBatchDto, RejectedNumberDto } from './dto/hlr-lookup.dto.js';
import type { SubmitHlrDto } from './dto/submit-hlr.dto.js';
import { HlrLookupRepository, type NewHlrLookup } from './hlr-lookup.repository.js';
import { HLR_QUEUE } from './hlr.worker.js';

const MAX_REASONS_IN_ERROR = 20;

/**
 * POST /v1/hlr (SPEC-2 §1.5). Every valid number becomes a `pending` lookup
 * priced from its country's `HLR` row; in one transaction the lookups are
 * written, the answer kept for the Idempotency-Key and, last, the total
 * debited at once, which the database refuses to make negative: a 402 leaves
 * nothing behind. The lookup worker answers them afterwards.
 */
@Injectable()
export class SubmitHlr {
  constructor(
    private readonly database: Database,
    private readonly lookups: HlrLookupRepository,
    private readonly billing: BillingService,
    private readonly ledger: LedgerRepository,
    private readonly idempotency: Idempotency,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    @Inject(URL_GUARD) private readonly urlGuard: UrlGuard,
    @Inject(hlrConfig.KEY) private readonly config: HlrConfig,
    @Inject(webhookConfig.KEY) private readonly webhooks: WebhookConfig,
  ) {}

  execute(principal: Principal, dto: SubmitHlrDto, idempotency?: IdempotentRequest): Promise<HlrBatchDto> {
    return this.idempotency.once(principal.accountId, idempotency, (scope) => this.submit(principal, dto, scope));
  }

  private async submit(principal: Principal, dto: SubmitHlrDto, idempotency?: IdempotencyScope): Promise<HlrBatchDto> {
    const numbers = dto.numbers ?? [dto.number!];
    if (numbers.length > this.config.maxBatch) throw ApiError.invalidField('numbers', `au plus ${this.config.maxBatch} numéros par requête`);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.vetWebhookUrl(dto.webhook_url);
    const now = this.clock.now();
    const lot = newLot();

    let total = 0;
    let result: HlrBatchDto;
    try {
      result = await this.database.transaction(async (sql) => {
        const { accepted, rejected } = await this.screen(sql, principal, numbers, dto.default_country);
        if (accepted.length === 0) {
          const reasons = rejected.slice(0, MAX_REASONS_IN_ERROR).map(({ number, reason }) => `${number}: ${reason}`);
          throw ApiError.validation(['numbers: aucun numéro valide', ...reasons]);
        }
        const lookups = accepted.map(
          (number): NewHlrLookup => ({
            id: newId(now),
            accountId: principal.accountId,
            sandbox: principal.test,
            lot,
            externalId: dto.external_id ?? null,
            number: number.e164,
            country: number.country,
            priceId: number.priceId,
            amount: principal.test ? 0 : number.amount,
            webhookUrl,
            createdBy: principal.userId,
            createdAt: now,
          }),
        );
        total = lookups.reduce((sum, lookup) => sum + lookup.amount, 0);
        await this.lookups.insertMany(sql, lookups);
        if (total > 0) await this.ledger.debit(sql, principal.accountId, total, { type: 'hlr', id: lot, lot, createdBy: principal.userId }, now);
        const balance = (await this.ledger.balanceOf(sql, principal.accountId)) ?? 0;
        const answer: HlrBatchDto = {
          lot,
          count: lookups.length,
          amount: toAmount(total),
          balance: toAmount(balance),
          lookups: lookups.map((lookup) => ({ id: lookup.id, number: lookup.number, status: 'pending', amount: toAmount(lookup.amount) })),
          rejected,
        };
        await idempotency?.recordSuccess(sql, answer);
        return answer;
      });
    } catch (error) {
      if (!isOverdraft(error)) throw error;
      const balance = (await this.database.run((sql) => this.ledger.balanceOf(sql, principal.accountId))) ?? 0;
      throw ApiError.insufficientBalance(toAmount(total), toAmount(balance));
    }
    this.jobs.wake(HLR_QUEUE);
    return result;
  }

  /** Valid, priced numbers, each once (the first occurrence wins); the others with their reason. */
  private async screen(sql: Sql, principal: Principal, numbers: string[], defaultCountry: string | undefined) {
    const accepted: Array<{ e164: string; country: string | null; priceId: string; amount: number }> = [];
    const rejected: RejectedNumberDto[] = [];
    const seen = new Set<string>();
    for (const given of numbers) {
      const phone = parsePhone(given, defaultCountry);
      if (!phone) {
        rejected.push({ number: given, reason: 'numero_invalide' });
        continue;
      }
      if (seen.has(phone.e164)) {
        rejected.push({ number: given, reason: 'doublon' });
        continue;
      }
      seen.add(phone.e164);
      const price = await this.billing.unitPrice(sql, 'HLR', phone.dialCode);
      if (!price) {
        rejected.push({ number: given, reason: 'destination_non_prise_en_charge' });
        continue;
      }
      accepted.push({ e164: phone.e164, country: phone.country, priceId: price.id, amount: price.amount });
    }
    return { accepted, rejected };
  }

  /** https to a public address; the SSRF guard again before every call. */
  private async vetWebhookUrl(raw: string): Promise<string> {
    try {
      const { url } = await this.urlGuard.vet(raw);
      if (url.protocol !== 'https:' && !this.webhooks.allowPrivateUrls) throw new Error('https only');
      return raw;
    } catch {
      throw ApiError.invalidField('webhook_url', 'adresse non autorisée');
    }
  }
}
