import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { toAmount } from '../common/money.js';
import { Database } from '../database/database.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import { SMS_NOT_FOUND } from '../sms/sms.service.js';
import { SmsStatusEvents } from '../sms/sms-status-events.js';
import type { CancelResultDto } from './dto/send-result.dto.js';

const EVENT_CHUNK = 500;

/**
 * POST /v1/sms/out/{id}/cancel: a scheduled message, or every scheduled
 * message of a lot, becomes `cancelled` and is refunded, in one transaction.
 * The rows are locked first, so a dispatcher claiming them at the same moment
 * either promoted them (nothing to cancel, 409) or finds them cancelled (and
 * drops them); the refund rides on the update, so it happens once.
 */
@Injectable()
export class CancelSms {
  constructor(
    private readonly database: Database,
    private readonly messages: MessageOutRepository,
    private readonly events: SmsStatusEvents,
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, idOrLot: string): Promise<CancelResultDto> {
    const now = this.clock.now();
    return this.database.transaction(async (sql) => {
      const found = await this.messages.lockForCancel(sql, principal.accountId, principal.test, idOrLot);
      if (found.length === 0) throw ApiError.notFound('Non trouvé', [SMS_NOT_FOUND]);
      const scheduled = found.filter((message) => message.status === 'scheduled');
      if (scheduled.length === 0) {
        const cancelled = found.every((message) => message.status === 'cancelled');
        throw ApiError.conflict('transition_invalide', [cancelled ? 'status: message déjà annulé' : 'status: message déjà transmis']);
      }

      const ids = scheduled.map((message) => message.uniqId);
      await this.messages.cancelScheduled(sql, ids, now);
      const refunded = principal.test ? 0 : scheduled.reduce((sum, message) => sum + message.amount, 0);
      if (refunded > 0) await this.ledger.add(sql, principal.accountId, refunded, 'refund', { type: 'sms', id: idOrLot, createdBy: principal.userId }, now);
      for (let start = 0; start < ids.length; start += EVENT_CHUNK) await this.events.changed(sql, ids.slice(start, start + EVENT_CHUNK), now);
      const balance = (await this.ledger.balanceOf(sql, principal.accountId)) ?? 0;
      return { cancelled: ids.length, refunded: toAmount(refunded), balance: toAmount(balance) };
    });
  }
}
