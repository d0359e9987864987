import { Inject, Injectable, Logger } from '@nestjs/common';
import { maskRecipient, maskSecrets } from '../../common/redact.js';
import { deliveryConfig, type DeliveryConfig } from '../../config/delivery.config.js';
import type { Sql } from '../../database/sql.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from '../sms-provider.js';
import { LogReceiptRepository } from './log-receipt.repository.js';
import { LOG_PROVIDER } from './log-receipts.worker.js';

/**
 * Writes each SMS to the log (codes masked) and accepts it: for local use.
 * Unless `LOG_RECEIPT_DELAY_MS` is 0, each then gets a DELIVRD receipt that
 * long after its hand-over (LogReceiptsWorker), as from an SMSC.
 */
@Injectable()
export class LogSmsProvider implements SmsProvider {
  readonly name = LOG_PROVIDER;
  readonly sendsReceipts: boolean;
  private readonly logger = new Logger('LogSmsProvider');

  constructor(
    @Inject(deliveryConfig.KEY) private readonly config: DeliveryConfig,
    private readonly receipts: LogReceiptRepository,
  ) {
    this.sendsReceipts = config.logReceiptDelayMs > 0;
  }

  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    this.logger.log({ messageId: sms.messageId, from: sms.from, to: maskRecipient(sms.to), text: maskSecrets(sms.text, sms.secrets) }, 'SMS');
    return { providerIds: [`log-${sms.messageId}`] };
  }

  /** The receipt to come, written with the hand-over's record: a restart loses none. */
  async accepted(sql: Sql, providerIds: string[], at: Date): Promise<void> {
    if (!this.sendsReceipts) return;
    await this.receipts.schedule(sql, providerIds, new Date(at.getTime() + this.config.logReceiptDelayMs), at);
  }
}
