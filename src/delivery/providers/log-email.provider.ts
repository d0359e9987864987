import { Injectable, Logger } from '@nestjs/common';
import { maskRecipient, maskSecrets } from '../../common/redact.js';
import type { EmailProvider, EmailSubmission } from '../email-provider.js';

/** Writes each e-mail to the log (codes masked) and accepts it: for local use. */
@Injectable()
export class LogEmailProvider implements EmailProvider {
  readonly name = 'log';
  private readonly logger = new Logger('LogEmailProvider');

  async send(email: EmailSubmission): Promise<{ providerIds: string[] }> {
    this.logger.log(
      { messageId: email.messageId, to: maskRecipient(email.to), subject: email.subject, text: maskSecrets(email.text, email.secrets) },
      'e-mail',
    );
    return { providerIds: [`log-${email.messageId}`] };
  }
}
