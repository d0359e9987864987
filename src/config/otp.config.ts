import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const otpConfig = registerAs('otp', () => {
  const env = parseEnvironment(process.env);
  return {
    maxAttempts: env.OTP_MAX_ATTEMPTS,
    maxSendsPerRecipient: env.OTP_MAX_SENDS_PER_RECIPIENT,
    sendWindowSeconds: env.OTP_SEND_WINDOW_SECONDS,
    maxFailedVerifications: env.OTP_MAX_FAILED_VERIFICATIONS,
    failedVerificationWindowSeconds: env.OTP_FAILED_VERIFICATION_WINDOW_SECONDS,
  };
});

export type OtpConfig = ConfigType<typeof otpConfig>;
