import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const smsConfig = registerAs('sms', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Recipients one `POST /sms/send` may reach once numbers, contacts and groups are expanded. */
    maxRecipients: env.SMS_MAX_RECIPIENTS_PER_REQUEST,
    /** How far ahead `send_at` may be. */
    maxScheduleDays: env.SMS_MAX_SCHEDULE_DAYS,
    /** The same text to the same number within this long is refused as `doublon_recent`; 0 turns the check off. */
    duplicateWindowSeconds: env.SMS_DUPLICATE_WINDOW_SECONDS,
  };
});

export type SmsConfig = ConfigType<typeof smsConfig>;
