import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment, ConfigurationError } from './environment.js';

export const deliveryConfig = registerAs('delivery', () => {
  const env = parseEnvironment(process.env);
  if (env.SMS_PROVIDER === 'smpp' && !env.SMPP_URL) {
    throw new ConfigurationError('Invalid configuration:\n  SMPP_URL is required when SMS_PROVIDER=smpp');
  }
  if (env.EMAIL_TRANSPORT === 'smtp' && !env.SMTP_URL) {
    throw new ConfigurationError('Invalid configuration:\n  SMTP_URL is required when EMAIL_TRANSPORT=smtp');
  }
  return {
    smsProvider: env.SMS_PROVIDER,
    smppUrl: env.SMPP_URL ?? null,
    /** Submits awaiting their response at once on the SMPP bind. */
    smppWindow: env.SMPP_WINDOW,
    /** With the `log` provider, each SMS gets a DELIVRD receipt this long after its hand-over; 0: none (it stays `sent`). */
    logReceiptDelayMs: env.LOG_RECEIPT_DELAY_MS,
    emailTransport: env.EMAIL_TRANSPORT,
    smtpUrl: env.SMTP_URL ?? null,
    emailFrom: env.EMAIL_FROM,
    /** A claimed outbox entry is offered again after this long if its claimer never settles it. */
    outboxLeaseSeconds: env.OUTBOX_LEASE_SECONDS,
    /** /health/ready fails once the oldest message not yet handed over has waited longer. */
    outboxMaxAgeSeconds: env.OUTBOX_MAX_AGE_SECONDS,
  };
});

export type DeliveryConfig = ConfigType<typeof deliveryConfig>;
