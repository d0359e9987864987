import { SecretBox } from '../common/crypto/secret-box.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';

export const PAYLOAD_BOX = Symbol('PAYLOAD_BOX');

/** Outbox payloads may hold a code until they are handed over: they are sealed under a key derived from OTP_SECRET. */
export const payloadBoxProvider = {
  provide: PAYLOAD_BOX,
  inject: [secretsConfig.KEY],
  useFactory: (secrets: SecretsConfig) => new SecretBox(secrets.otpSecret, 'outbox-payload'),
};
