import { Injectable, Logger } from '@nestjs/common';
import { DeliveryReceipts } from '../delivery-receipts.js';
import type { DeliveryReceipt } from '../delivery-receipt.js';
import { PermanentDeliveryError } from '../delivery-errors.js';
import type { EmailProvider, EmailSubmission } from '../email-provider.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from '../sms-provider.js';

/**
 * Recipients whose sandbox messages take a known course, so that client teams
 * can test each outcome. Any other recipient stays `sent`.
 */
export const SANDBOX_RECIPIENTS = {
  delivered: '+2250700000001',
  undelivered: '+2250700000002',
  failed: '+2250700000003',
} as const;

const RECEIPTS: Record<string, Pick<DeliveryReceipt, 'outcome' | 'providerStatus'>> = {
  [SANDBOX_RECIPIENTS.delivered]: { outcome: 'delivered', providerStatus: 'DELIVRD' },
  [SANDBOX_RECIPIENTS.undelivered]: { outcome: 'undelivered', providerStatus: 'UNDELIV' },
};

/** Messages sent with a test (`mk_test_`) key: accepted and stored, never handed to a real provider. */
@Injectable()
export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox';
  readonly sendsReceipts = true;
  private readonly logger = new Logger(SandboxSmsProvider.name);

  constructor(private readonly receipts: DeliveryReceipts) {}

  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    if (sms.to === SANDBOX_RECIPIENTS.failed) throw new PermanentDeliveryError('sandbox recipient that always refuses', 'REJECTD');
    const providerId = `sandbox-${sms.messageId}`;
    const receipt = RECEIPTS[sms.to];
    // as from an SMSC: the receipt comes on its own, possibly before the acceptance is recorded
    if (receipt) setImmediate(() => this.receive({ provider: this.name, providerId, ...receipt }));
    return { providerIds: [providerId] };
  }

  private receive(receipt: DeliveryReceipt): void {
    this.receipts.record(receipt).catch((error: unknown) => this.logger.warn({ err: error, providerId: receipt.providerId }, 'sandbox receipt not recorded'));
  }
}

@Injectable()
export class SandboxEmailProvider implements EmailProvider {
  readonly name = 'sandbox';

  async send(email: EmailSubmission): Promise<{ providerIds: string[] }> {
    return { providerIds: [`sandbox-${email.messageId}`] };
  }
}
