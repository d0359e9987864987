import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { maskRecipient } from '../../common/redact.js';
import { PermanentDeliveryError, TransientDeliveryError } from '../delivery-errors.js';
import type { EmailProvider, EmailSubmission } from '../email-provider.js';

/** Network-level failures: the relay may take the message later. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL']);

/**
 * E-mail through an SMTP relay (`SMTP_URL`) with pooled connections. A 4xx
 * answer or a network failure is retried; a 5xx answer is a permanent refusal.
 */
export class SmtpEmailProvider implements EmailProvider, BeforeApplicationShutdown {
  readonly name = 'smtp';
  private readonly logger = new Logger(SmtpEmailProvider.name);
  private readonly transporter: Transporter;

  constructor(
    smtpUrl: string,
    private readonly fromAddress: string,
  ) {
    const url = new URL(smtpUrl);
    this.transporter = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      pool: true,
      maxConnections: 5,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(email: EmailSubmission): Promise<{ providerIds: string[] }> {
    try {
      const info = await this.transporter.sendMail({
        from: { name: email.fromName ?? '', address: this.fromAddress },
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      });
      return { providerIds: [String(info.messageId)] };
    } catch (error) {
      throw this.classify(error, email);
    }
  }

  beforeApplicationShutdown(): void {
    this.transporter.close();
  }

  private classify(error: unknown, email: EmailSubmission): Error {
    const { responseCode, code, message } = error as { responseCode?: number; code?: string; message?: string };
    if (typeof responseCode === 'number' && responseCode >= 500) {
      this.logger.warn({ messageId: email.messageId, to: maskRecipient(email.to), responseCode }, 'SMTP relay refused the message');
      return new PermanentDeliveryError(`SMTP ${responseCode}`, `SMTP${responseCode}`);
    }
    if ((typeof responseCode === 'number' && responseCode >= 400) || (code && TRANSIENT_CODES.has(code))) {
      return new TransientDeliveryError(`SMTP ${responseCode ?? code}`);
    }
    return new TransientDeliveryError(message ?? 'SMTP failure');
  }
}
