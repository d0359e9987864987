import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { BillingService } from '../billing/billing.service.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { parsePhone } from '../common/recipient.js';
import { hlrConfig, type HlrConfig } from '../config/hlr.config.js';
import type { Sql } from '../database/sql.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { CallbackUrls } from '../sending/callback-urls.service.js';
import { ChargedSend, type Charge, type ChargedUnit } from '../sending/charged-send.service.js';
import type { HlrBatchDto, RejectedNumberDto } from './dto/hlr-lookup.dto.js';
import type { SubmitHlrDto } from './dto/submit-hlr.dto.js';
import { HlrLookupRepository, type NewHlrLookup } from './hlr-lookup.repository.js';
import { HLR_QUEUE } from './hlr.worker.js';

const MAX_REASONS_IN_ERROR = 20;

/** A request's numbers and what is decided once for them, whatever the attempts of its unit of work. */
interface Batch {
  numbers: string[];
  webhookUrl: string | null;
  lot: string;
  now: Date;
}

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
    private readonly charged: ChargedSend,
    private readonly callbackUrls: CallbackUrls,
    private readonly lookups: HlrLookupRepository,
    private readonly billing: BillingService,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    @Inject(hlrConfig.KEY) private readonly config: HlrConfig,
  ) {}

  execute(principal: Principal, dto: SubmitHlrDto, idempotency?: IdempotentRequest): Promise<HlrBatchDto> {
    return this.charged.run(principal.accountId, idempotency, () => this.prepare(principal, dto));
  }

  /** The batch's size and the callback URL's DNS, checked before the unit that writes the lookups. */
  private async prepare(principal: Principal, dto: SubmitHlrDto): Promise<ChargedUnit<HlrBatchDto>> {
    const numbers = dto.numbers ?? [dto.number!];
    if (numbers.length > this.config.maxBatch) throw ApiError.invalidField('numbers', `au plus ${this.config.maxBatch} numéros par requête`);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.callbackUrls.vet(dto.webhook_url);
    const batch = { numbers, webhookUrl, lot: newLot(), now: this.clock.now() };
    return (sql) => this.submit(sql, principal, dto, batch);
  }

  private async submit(sql: Sql, principal: Principal, dto: SubmitHlrDto, batch: Batch): Promise<Charge<HlrBatchDto>> {
    const { lot, now } = batch;
    const { accepted, rejected } = await this.screen(sql, batch.numbers, dto.default_country);
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
        webhookUrl: batch.webhookUrl,
        createdBy: principal.userId,
        createdAt: now,
      }),
    );
    const total = lookups.reduce((sum, lookup) => sum + lookup.amount, 0);
    await this.lookups.insertMany(sql, lookups);
    return {
      cost: total,
      for: { type: 'hlr', id: lot, lot, createdBy: principal.userId },
      at: now,
      answerWithBalance: (balance) => ({
        lot,
        count: lookups.length,
        amount: toAmount(total),
        balance: toAmount(balance),
        lookups: lookups.map((lookup) => ({ id: lookup.id, number: lookup.number, status: 'pending', amount: toAmount(lookup.amount) })),
        rejected,
      }),
      committed: () => this.jobs.wake(HLR_QUEUE),
    };
  }

  /** Valid, priced numbers, each once (the first occurrence wins); the others with their reason. */
  private async screen(sql: Sql, numbers: string[], defaultCountry: string | undefined) {
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
}
