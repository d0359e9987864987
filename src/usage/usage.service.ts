import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { Principal } from '../common/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { UsageDto } from './dto/usage.dto.js';
import type { Granularity, UsageQueryDto } from './dto/usage-query.dto.js';
import { Database } from '../database/database.js';
import { FraudAttemptRepository } from '../fraud/fraud-attempt.repository.js';
import { rate, UsageTally } from './usage-tally.js';
import { UsageRepository } from './usage.repository.js';

const MAX_RANGE_MS = 366 * 86_400_000;
const UNITS = { day: 'day', week: 'week', month: 'month' } as const;

/**
 * GET /v1/metrics (SPEC-2 §1.6): the account's messages counted by UTC slot
 * in the database, then summed into local days, weeks or months here, so that
 * a DST change or a half-hour zone puts every message in its own local period.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly database: Database,
    private readonly attempts: FraudAttemptRepository,
  ) {}

  async report(principal: Principal, query: UsageQueryDto): Promise<UsageDto> {
    const [from, to] = [new Date(query.created_from), new Date(query.created_to)];
    if (to.getTime() <= from.getTime()) throw ApiError.invalidField('created_to', 'doit être après created_from');
    if (to.getTime() - from.getTime() > MAX_RANGE_MS) throw ApiError.invalidField('created_from', 'intervalle de 366 jours maximum');
    const zone = query.timezone ?? 'UTC';
    const granularity = query.granularity ?? 'day';

    const scope = { accountId: principal.accountId, sandbox: principal.test };
    const slots = await this.usage.countsBySlot(
      { ...scope, from, to, type: query.type, senderId: query.sender_id, campaignId: query.campaign_id, country: query.country },
      wholeHourOffsets(zone, from, to) ? 60 : 15,
    );
    const otps = await this.usage.otpCounts({ ...scope, from, to, country: query.country });
    const blocked = await this.database.run((sql) => this.attempts.countBlocked(sql, scope, from, to, query.country));
    const totals = new UsageTally();
    const buckets = granularity === 'none' ? new Map<string, UsageTally>() : periods(from, to, zone, granularity);
    for (const slot of slots) {
      totals.add(slot);
      if (granularity !== 'none') buckets.get(periodOf(DateTime.fromJSDate(slot.slot, { zone }), granularity))?.add(slot);
    }
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      timezone: zone,
      totals: totals.toDto(),
      otp: { sent: otps.sent, verified: otps.verified, conversion_rate: rate(otps.verified, otps.sent), blocked },
      buckets: [...buckets].map(([period, tally]) => ({ period, ...tally.toDto() })),
    };
  }
}

/** Every local period the range touches, in order, each with an empty tally. */
function periods(from: Date, to: Date, zone: string, granularity: Exclude<Granularity, 'none'>): Map<string, UsageTally> {
  const found = new Map<string, UsageTally>();
  const end = DateTime.fromJSDate(to, { zone });
  for (let at = DateTime.fromJSDate(from, { zone }).startOf(UNITS[granularity]); at < end; at = at.plus({ [granularity]: 1 })) {
    found.set(periodOf(at, granularity), new UsageTally());
  }
  return found;
}

function periodOf(local: DateTime, granularity: Exclude<Granularity, 'none'>): string {
  if (granularity === 'month') return local.toFormat('yyyy-MM');
  return (granularity === 'week' ? local.startOf('week') : local).toISODate()!;
}

/** Whether the zone's offset stays a whole number of hours over the range (checked twice a day): UTC hours then fall in one local day each. */
function wholeHourOffsets(zone: string, from: Date, to: Date): boolean {
  for (let at = from.getTime(); at <= to.getTime() + 43_200_000; at += 43_200_000) {
    if (DateTime.fromMillis(at, { zone }).offset % 60 !== 0) return false;
  }
  return true;
}
