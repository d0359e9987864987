import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { SecretBox } from '../common/crypto/secret-box.js';
import { TtlCache } from '../common/ttl-cache.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { AccountWebhookRepository, type AccountWebhook } from './account-webhook.repository.js';
import { newWebhookSecret, ROTATION_OVERLAP_MS, WEBHOOK_SECRET_BOX } from './webhook-secrets.js';

/** Signing secrets are stored sealed under a key derived from OTP_SECRET: they must be read back to sign. */
export const webhookSecretBoxProvider = {
  provide: WEBHOOK_SECRET_BOX,
  inject: [secretsConfig.KEY],
  useFactory: (secrets: SecretsConfig) => new SecretBox(secrets.otpSecret, 'webhook-secret'),
};

const OPENED_TTL_MS = 60_000;
const OPENED_CAPACITY = 1_000;

/**
 * One signing secret per account, shown only when it is made: by the first
 * PUT /account/webhook, a rotation (API or `account:webhook-secret`), or — for
 * an account whose messages carry their own URL before it ever set a webhook —
 * by the first delivery, after which a rotation reveals one.
 */
@Injectable()
export class WebhookSecretService {
  /** Secrets opened, by their sealed text (which names one secret): every event of an account is signed with the same one. */
  private readonly opened = new TtlCache<string>(OPENED_TTL_MS, OPENED_CAPACITY);

  constructor(
    private readonly database: Database,
    private readonly webhooks: AccountWebhookRepository,
    private readonly clock: Clock,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /** A new secret for the account; the one it replaces goes on signing for 24 hours. Returned once, never stored in clear. */
  rotate(accountId: string): Promise<string> {
    return this.database.transaction((sql) => this.rotateIn(sql, accountId));
  }

  async rotateIn(sql: Sql, accountId: string): Promise<string> {
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const existing = await this.webhooks.find(sql, accountId, true);
    if (existing) await this.webhooks.rotateSecret(sql, accountId, this.box.seal(secret), new Date(now.getTime() + ROTATION_OVERLAP_MS), now);
    else await this.webhooks.insertSecret(sql, accountId, this.box.seal(secret), now);
    return secret;
  }

  /** Gives the account a secret if it has none yet; returns it only when this call made it. */
  async ensureIn(sql: Sql, accountId: string): Promise<string | null> {
    const existing = await this.webhooks.find(sql, accountId, true);
    if (existing?.secret) return null;
    const secret = newWebhookSecret();
    const now = this.clock.now();
    if (existing) await this.webhooks.rotateSecret(sql, accountId, this.box.seal(secret), now, now);
    else await this.webhooks.insertSecret(sql, accountId, this.box.seal(secret), now);
    return secret;
  }

  /** The secrets that sign now, in clear: the current one, and the previous one within its 24 hours. */
  live(webhook: AccountWebhook, now: Date): string[] {
    const secrets = webhook.secret ? [this.open(webhook.secret)] : [];
    if (webhook.previousSecret && webhook.previousSecretUntil && webhook.previousSecretUntil.getTime() > now.getTime()) {
      secrets.push(this.open(webhook.previousSecret));
    }
    return secrets;
  }

  private open(sealed: string): string {
    const now = Date.now();
    let secret = this.opened.get(sealed, now);
    if (secret === undefined) {
      secret = this.box.open(sealed);
      this.opened.set(sealed, secret, now);
    }
    return secret;
  }
}
