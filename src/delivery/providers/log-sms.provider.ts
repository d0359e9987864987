import { Injectable, Logger } from '@nestjs/common';
import { maskRecipient, maskSecrets } from '../../common/redact.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from '../sms-provider.js';

/** Writes each SMS to the log (codes masked) and accepts it: for local use. */
@Injectable()
export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';
  readonly sendsReceipts = false;
  private readonly logger = new Logger('LogSmsProvider');

  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    this.logger.log({ messageId: sms.messageId, from: sms.from, to: maskRecipient(sms.to), text: maskSecrets(sms.text, sms.secrets) }, 'SMS');
    return { providerIds: [`log-${sms.messageId}`] };
  }
}
