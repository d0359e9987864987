import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { FraudAttemptDto, OtpBlockedWebhookEventDto } from './dto/fraud-attempt.dto.js';
import type { AttemptRecord } from './fraud-attempt.repository.js';
import { toAttemptDto } from './fraud-views.js';

/** The `otp.blocked` webhook event: one per refused send, emitted with its attempt, to the account webhook when it subscribes. */
@Injectable()
export class FraudEvents {
  constructor(private readonly webhooks: WebhookEvents) {
    webhooks.describe(OtpBlockedWebhookEventDto, FraudAttemptDto);
  }

  async blocked(sql: Sql, attempt: AttemptRecord): Promise<void> {
    await this.webhooks.emit(sql, { accountId: attempt.accountId, type: 'otp.blocked', data: toAttemptDto(attempt), at: attempt.createdAt, subjectId: attempt.id });
  }
}
