import { Injectable } from '@nestjs/common';
import type { EmailProvider, EmailSubmission } from '../email-provider.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from '../sms-provider.js';

/** Messages sent with a test (`mk_test_`) key: accepted and stored, never handed to a real provider. */
@Injectable()
export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox';
  readonly sendsReceipts = false;

  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    return { providerIds: [`sandbox-${sms.messageId}`] };
  }
}

@Injectable()
export class SandboxEmailProvider implements EmailProvider {
  readonly name = 'sandbox';

  async send(email: EmailSubmission): Promise<{ providerIds: string[] }> {
    return { providerIds: [`sandbox-${email.messageId}`] };
  }
}
