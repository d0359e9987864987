import { Injectable } from '@nestjs/common';
import { AdminError } from '../admin/admin-error.js';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { SenderEventDataDto, SenderWebhookEventDto } from './dto/sender-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import type { SenderDto } from './dto/sender.dto.js';
import { toSenderDto } from './sender.service.js';
import { SenderRepository } from './sender.repository.js';

/** The operator's review of requested sender IDs (the CLI), each decision reported by a `sender.*` event. */
@Injectable()
export class SenderReview {
  constructor(
    private readonly database: Database,
    private readonly senders: SenderRepository,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
  ) {
    webhooks.describe(SenderWebhookEventDto, SenderEventDataDto);
  }

  /** Approves a pending or rejected sender, unless another sender of the account now holds its name. */
  approve(senderId: string): Promise<SenderDto> {
    return this.decide(senderId, 'approved', null);
  }

  /** Rejects a pending sender, with the reason the account will read. */
  async reject(senderId: string, reason: string): Promise<SenderDto> {
    if (reason.trim().length === 0 || reason.length > 500) throw new AdminError('the reason must be 1 to 500 characters');
    return this.decide(senderId, 'rejected', reason.trim());
  }

  private async decide(senderId: string, status: 'approved' | 'rejected', reason: string | null): Promise<SenderDto> {
    const at = this.clock.now();
    const sender = await this.database.transaction(async (sql) => {
      const found = await this.senders.findForReview(sql, senderId);
      if (!found) throw new AdminError(`no sender ${senderId}`);
      const allowed = status === 'approved' ? ['pending', 'rejected'] : ['pending'];
      if (!allowed.includes(found.status)) throw new AdminError(`sender ${senderId} is ${found.status}`);
      try {
        await this.senders.review(sql, found, status, reason, at);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AdminError(`another sender of the account is pending or approved as ${found.name}`);
        throw error;
      }
      const reviewed = { ...found, status, rejectionReason: reason, reviewedAt: at };
      const data: SenderEventDataDto = { id: found.id, name: found.name, status, rejection_reason: reason, reviewed_at: at.toISOString() };
      await this.webhooks.emit(sql, { accountId: found.accountId, type: `sender.${status}`, data, at });
      return reviewed;
    });
    return toSenderDto(sender);
  }
}
