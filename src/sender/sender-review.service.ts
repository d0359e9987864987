import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Database } from '../database/database.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { SenderEventDataDto, SenderWebhookEventDto } from './dto/sender-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { Page, type ListPage } from '../common/list/page.js';
import { REASON_LENGTH, type SenderQueryDto } from './dto/sender-input.dto.js';
import type { SenderDto } from './dto/sender.dto.js';
import { SENDER_NOT_FOUND, toSenderDto } from './sender.service.js';
import { SenderRepository, type SenderStatus } from './sender.repository.js';

/** The operator's review of requested sender IDs (the CLI and `/v1/admin/senders`), each decision reported by a `sender.*` event. */
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

  /** Every account's senders, newest first: those waiting for review with `status=pending`. */
  list(query: SenderQueryDto): Promise<ListPage<SenderDto>> {
    const page = Page.of(query, { status: query.status });
    return this.database.run(async (sql) => page.answer(await this.senders.list(sql, null, query.status, page), (sender) => sender.id, toSenderDto));
  }

  /** Approves a pending or rejected sender, unless another sender of the account now holds its name. */
  approve(senderId: string): Promise<SenderDto> {
    return this.decide(senderId, 'approved', null);
  }

  /** Rejects a pending sender, with the reason the account will read. */
  async reject(senderId: string, reason: string): Promise<SenderDto> {
    if (reason.trim().length === 0 || reason.length > 500) throw ApiError.invalidField('reason', REASON_LENGTH);
    return this.decide(senderId, 'rejected', reason.trim());
  }

  private async decide(senderId: string, status: 'approved' | 'rejected', reason: string | null): Promise<SenderDto> {
    const at = this.clock.now();
    const sender = await this.database.transaction(async (sql) => {
      const found = isUuid(senderId) ? await this.senders.findForReview(sql, senderId) : null;
      if (!found) throw ApiError.notFound(SENDER_NOT_FOUND);
      const refused = refusal(found.status, status);
      if (refused) throw ApiError.conflict('transition_invalide', [refused]);
      try {
        await this.senders.review(sql, found, status, reason, at);
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.conflict('deja_existant', [`name: un autre expéditeur du compte est en attente ou approuvé sous le nom ${found.name}`]);
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

/** Why a decision is refused in the sender's status (409 `transition_invalide`): a rejected sender may still be approved, nothing else decided is decided again. */
function refusal(current: SenderStatus, decision: 'approved' | 'rejected'): string | null {
  if (current === decision) return `status: expéditeur déjà ${current === 'approved' ? 'approuvé' : 'refusé'}`;
  if (current === 'approved') return 'status: expéditeur déjà approuvé, il ne peut plus être refusé';
  return null;
}
