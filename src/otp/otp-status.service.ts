import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { Database } from '../database/database.js';
import { OTP_DELIVERY_STATUSES, type OtpDeliveryStatus, type OtpQueryDto, type OtpStatusDto } from './dto/otp-status.dto.js';
import { normaliseRecipient } from './otp-recipient.js';
import { OtpStatusRepository, stateOf, type OtpStatusRecord, type StateRule } from './otp-status.repository.js';

export const OTP_NOT_FOUND = 'uniq_id: aucun code OTP pour cet identifiant';

/** Reading OTPs of the calling key's mode: one by its `uniq_id`, or a page; never their code. */
@Injectable()
export class OtpStatusService {
  constructor(
    private readonly database: Database,
    private readonly otps: OtpStatusRepository,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
  ) {}

  async findOne(principal: Principal, uniqId: string): Promise<OtpStatusDto> {
    const found = isUuid(uniqId) ? await this.database.run((sql) => this.otps.find(sql, principal.accountId, principal.test, uniqId)) : null;
    if (!found) throw ApiError.notFound('Non trouvé', [OTP_NOT_FOUND]);
    return toOtpStatusDto(found, this.rule());
  }

  list(principal: Principal, query: OtpQueryDto): Promise<ListPage<OtpStatusDto>> {
    const recipient = query.to === undefined ? undefined : normaliseRecipient(query.to);
    const filters = {
      recipient,
      state: query.state,
      channel: query.channel === undefined ? undefined : (query.channel.toUpperCase() as 'SMS' | 'EMAIL'),
      from: query.created_from === undefined ? undefined : new Date(query.created_from),
      to: query.created_to === undefined ? undefined : new Date(query.created_to),
    };
    const page = Page.of(query, { ...filters, from: query.created_from, to: query.created_to });
    const rule = this.rule();
    return this.database.run(async (sql) =>
      page.answer(await this.otps.list(sql, principal.accountId, principal.test, filters, rule, page), (otp) => otp.uniqId, (otp) => toOtpStatusDto(otp, rule)),
    );
  }

  private rule(): StateRule {
    return { now: this.clock.now(), maxAttempts: this.config.maxAttempts };
  }
}

const DELIVERY_STATUSES = new Set<string>(OTP_DELIVERY_STATUSES);

/** The message's own status; one not yet handed over is `pending`. */
const deliveryStatusOf = (otp: OtpStatusRecord): OtpDeliveryStatus =>
  otp.deliveryStatus !== null && DELIVERY_STATUSES.has(otp.deliveryStatus) ? (otp.deliveryStatus as OtpDeliveryStatus) : 'pending';

function toOtpStatusDto(otp: OtpStatusRecord, rule: StateRule): OtpStatusDto {
  return {
    uniq_id: otp.uniqId,
    to: otp.recipient,
    channel: otp.channel.toLowerCase(),
    state: stateOf(otp, rule),
    delivery_status: deliveryStatusOf(otp),
    attempts: otp.attempts,
    application_name: otp.applicationName,
    send_at: otp.createdAt.toISOString(),
    expires_at: otp.expiresAt.toISOString(),
    verified_at: otp.verifiedAt?.toISOString() ?? null,
    sms_uniq_id: otp.channel === 'SMS' ? otp.uniqId : null,
  };
}
