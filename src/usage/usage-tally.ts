import { toAmount } from '../common/money.js';
import type { UsageTotalsDto } from './dto/usage.dto.js';
import type { SlotCounts } from './usage.repository.js';

const STATUSES = ['scheduled', 'pending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];

/** Sums of messages, segments, amounts and statuses, and the rates SPEC-2 §1.6 defines on them. */
export class UsageTally {
  private messages = 0;
  private segments = 0;
  private amount = 0;
  private readonly byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<Status, number>;

  add(counts: SlotCounts): void {
    this.messages += counts.messages;
    this.segments += counts.segments;
    this.amount += counts.amount;
    if (counts.status in this.byStatus) this.byStatus[counts.status as Status] += counts.messages;
  }

  toDto(): UsageTotalsDto {
    const { sent, delivered, undelivered, failed } = this.byStatus;
    const handedOver = sent + delivered + undelivered;
    return {
      messages: this.messages,
      segments: this.segments,
      amount: toAmount(this.amount),
      by_status: { ...this.byStatus },
      delivery_rate: rate(delivered, handedOver),
      failure_rate: rate(failed, handedOver + failed),
    };
  }
}

/** part ÷ whole to 4 decimals; null when whole is 0. */
export const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);
