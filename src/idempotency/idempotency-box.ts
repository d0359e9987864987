import { SecretBox } from '../common/crypto/secret-box.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';

export const IDEMPOTENCY_BOX = Symbol('IDEMPOTENCY_BOX');

export const idempotencyBoxProvider = {
  provide: IDEMPOTENCY_BOX,
  inject: [secretsConfig.KEY],
  useFactory: (secrets: SecretsConfig) => new SecretBox(secrets.otpSecret, 'idempotency-answer'),
};
