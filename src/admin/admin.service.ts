import { Injectable } from '@nestjs/common';
import { AccountRepository } from '../account/account.repository.js';
import { UserRepository } from '../account/user.repository.js';
import { ApiKeyRepository } from '../auth/api-key.repository.js';
import { generateApiKey } from '../auth/api-key.js';
import { TokenService } from '../auth/token.service.js';
import { LedgerRepository, type LedgerReference } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { toAmount, toHundredths } from '../common/money.js';
import { ContactService } from '../contact/contact.service.js';
import { CreateContactDto } from '../contact/dto/contact-input.dto.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { GroupService } from '../group/group.service.js';
import { OptOutService } from '../opt-out/opt-out.service.js';
import type { Principal } from '../common/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { validateAs } from '../common/validation/request-validation.pipe.js';
import { parseEmail, parsePhone } from '../common/recipient.js';
import { defaultSenderName, isValidSenderName } from '../sender/sender-name.js';
import { SenderRepository } from '../sender/sender.repository.js';
import { WebhookSecretService } from '../webhook/webhook-secret.service.js';
import { AdminError } from './admin-error.js';

const BY_OPERATOR: LedgerReference = { type: 'admin', id: null };

export interface NewAccount {
  name: string;
  email?: string;
  phone?: string;
  /** In the account currency, at most two decimals. */
  balance?: number | string;
  sender?: string;
}

/** Administration of accounts, users, credentials, senders, groups and opt-outs: what the CLI and the first run do. */
@Injectable()
export class AdminService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountRepository,
    private readonly users: UserRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly tokens: TokenService,
    private readonly ledger: LedgerRepository,
    private readonly senders: SenderRepository,
    private readonly groupService: GroupService,
    private readonly contactService: ContactService,
    private readonly clock: Clock,
    private readonly webhookSecrets: WebhookSecretService,
    private readonly optOuts: OptOutService,
  ) {}

  /** An account with its owner user, a default sender and an API key. */
  async createAccount(input: NewAccount) {
    const name = requiredText('name', input.name, 120);
    const email = optionalEmail(input.email);
    const phone = input.phone === undefined ? null : requiredPhone(input.phone).e164;
    const balance = amountOf('balance', input.balance ?? 0, { allowZero: true });
    const senderName = input.sender ?? defaultSenderName(name);
    if (!isValidSenderName(senderName)) throw new AdminError(`invalid sender name: ${senderName}`);

    const now = this.clock.now();
    const ids = { account: newId(), user: newId(), sender: newId(), key: newId() };
    const key = generateApiKey(false);
    await this.database.transaction(async (sql) => {
      await this.accounts.insert(sql, {
        id: ids.account,
        name,
        email,
        phone,
        balance: 0,
        address: null,
        logoUrl: null,
        countryId: null,
        createdBy: null,
        createdAt: now,
      });
      await this.users.insert(sql, { id: ids.user, accountId: ids.account, name, email, createdAt: now });
      await this.accounts.setOwner(sql, ids.account, ids.user);
      await this.ledger.add(sql, ids.account, balance, 'opening', BY_OPERATOR, now);
      await this.senders.insert(sql, { id: ids.sender, accountId: ids.account, name: senderName, status: 'approved', isDefault: true, createdBy: null, at: now });
      await this.insertKey(sql, ids.key, ids.user, ids.account, key, false, now);
    });
    return { account_id: ids.account, user_id: ids.user, sender_id: ids.sender, api_key: key.key };
  }

  async createUser(accountId: string, name: string, email?: string) {
    const userId = newId();
    await this.database.transaction(async (sql) => {
      await this.requireAccount(sql, accountId);
      await this.users.insert(sql, {
        id: userId,
        accountId,
        name: requiredText('name', name, 120),
        email: optionalEmail(email),
        createdAt: this.clock.now(),
      });
    });
    return { user_id: userId };
  }

  async deleteUser(userId: string) {
    const deleted = await this.database.transaction((sql) => this.users.markDeleted(sql, userId, this.clock.now()));
    if (!deleted) throw new AdminError(`no active user ${userId}`);
    return { user_id: userId, deleted: true as const };
  }

  async issueToken(userId: string, ttlSeconds = 3600) {
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new AdminError('ttl must be a positive number of seconds');
    const user = await this.database.run((sql) => this.users.findActive(sql, userId));
    if (!user) throw new AdminError(`no active user ${userId}`);
    const issued = this.tokens.issue(user.id, user.accountId, ttlSeconds);
    return { token: issued.token, expires_at: issued.expiresAt };
  }

  async createApiKey(userId: string, test = false) {
    const keyId = newId();
    const key = generateApiKey(test);
    await this.database.transaction(async (sql) => {
      const user = await this.users.findActive(sql, userId);
      if (!user) throw new AdminError(`no active user ${userId}`);
      await this.insertKey(sql, keyId, user.id, user.accountId, key, test, this.clock.now());
    });
    return { key_id: keyId, api_key: key.key };
  }

  async revokeApiKey(keyId: string) {
    const revoked = await this.database.transaction((sql) => this.apiKeys.revoke(sql, keyId, this.clock.now()));
    if (!revoked) throw new AdminError(`no active API key ${keyId}`);
    return { key_id: keyId, revoked: true as const };
  }

  /** A `credit` ledger row, as `POST /v1/admin/accounts/{id}/credit` writes it. */
  async credit(accountId: string, amount: number | string, description?: string) {
    const hundredths = amountOf('amount', amount, { allowZero: false });
    const reference = { ...BY_OPERATOR, description: description === undefined ? null : requiredText('description', description, 255) };
    const balance = await this.database.transaction(async (sql) => {
      await this.requireAccount(sql, accountId);
      await this.ledger.add(sql, accountId, hundredths, 'credit', reference, this.clock.now());
      return this.ledger.balanceOf(sql, accountId);
    });
    return { balance: toAmount(balance ?? 0) };
  }

  /** The balance against the sum of the ledger: they are equal after anything. */
  async audit(accountId: string) {
    const { balance, ledgerSum } = await this.database.transaction(async (sql) => {
      const current = await this.ledger.balanceOf(sql, accountId);
      if (current === undefined) throw new AdminError(`no account ${accountId}`);
      return { balance: current, ledgerSum: await this.ledger.sumOf(sql, accountId) };
    });
    return { balance: toAmount(balance), ledger_sum: toAmount(ledgerSum), consistent: balance === ledgerSum };
  }

  /** A new webhook signing secret for the account, printed once; the previous one still signs for 24 hours. */
  async rotateWebhookSecret(accountId: string) {
    const secret = await this.database.transaction(async (sql) => {
      if ((await this.ledger.balanceOf(sql, accountId)) === undefined) throw new AdminError(`no account ${accountId}`);
      return this.webhookSecrets.rotateIn(sql, accountId);
    });
    return { secret };
  }

  async createSender(accountId: string, name: string) {
    if (!isValidSenderName(name)) {
      throw new AdminError('a sender name is up to 11 letters, digits or spaces with a letter, or up to 15 digits');
    }
    const senderId = newId();
    await this.database.transaction(async (sql) => {
      await this.requireAccount(sql, accountId);
      const existing = await this.senders.findByName(sql, accountId, name);
      if (existing && existing.status !== 'rejected') throw new AdminError(`sender ${name} already exists`);
      await this.senders.insert(sql, { id: senderId, accountId, name, status: 'approved', createdBy: null, at: this.clock.now() });
    });
    return { sender_id: senderId };
  }

  /** A number the account owns in one country, used by sends with `use_local_number`. */
  async addLocalNumber(accountId: string, number: string) {
    const phone = requiredPhone(number);
    const id = newId();
    await this.database.transaction(async (sql) => {
      await this.requireAccount(sql, accountId);
      if (await this.senders.findLocalNumber(sql, accountId, phone.dialCode)) {
        throw new AdminError(`the account already has a local number for ${phone.dialCode}`);
      }
      await this.senders.insertLocalNumber(sql, { id, accountId, dialCode: phone.dialCode, number: phone.e164, createdAt: this.clock.now() });
    });
    return { local_number_id: id, number: phone.e164 };
  }

  /** A group, created on behalf of the account's owner. */
  async createGroup(accountId: string, name: string, description?: string) {
    const owner = await this.ownerOf(accountId);
    const group = await asAdminError(() => this.groupService.create(owner, { name, description: description ?? null }));
    return { id: group.id };
  }

  /** A contact, optionally added to one of the account's groups. */
  async createContact(accountId: string, contact: { name?: string; phone?: string; email?: string; group?: string }) {
    const owner = await this.ownerOf(accountId);
    if (contact.phone === undefined) throw new AdminError('a contact needs --phone');
    const body = { phone: contact.phone, name: contact.name, email: contact.email, group_ids: contact.group === undefined ? undefined : [contact.group] };
    const { errors } = validateAs(CreateContactDto, body);
    if (errors.length > 0) throw new AdminError(errors.join('; '));
    const created = await asAdminError(() => this.contactService.create(owner, body));
    return { contact_id: created.id };
  }

  /** Puts a number on the account's opt-out list (source `admin`), the sandbox one with `sandbox`. */
  async addOptOut(accountId: string, number: string, sandbox = false) {
    const phone = requiredPhone(number).e164;
    await this.database.run((sql) => this.requireAccount(sql, accountId));
    const { added } = await this.optOuts.addNumbers({ accountId, sandbox }, [phone], 'admin', null);
    return { phone, sandbox, added: added === 1 };
  }

  /** Takes a number off the account's opt-out list, unless only its recipient may (STOP, link). */
  async removeOptOut(accountId: string, number: string, sandbox = false) {
    const phone = requiredPhone(number).e164;
    await this.database.run((sql) => this.requireAccount(sql, accountId));
    await asAdminError(() => this.optOuts.remove({ accountId, sandbox }, phone, 'admin'));
    return { phone, sandbox, removed: true as const };
  }

  /** The account's owner as a principal, for what the CLI does on the account's behalf. */
  private async ownerOf(accountId: string): Promise<Principal> {
    const account = await this.database.run((sql) => this.accounts.findById(sql, accountId));
    if (!account) throw new AdminError(`no account ${accountId}`);
    return { accountId, userId: account.createdBy ?? '', credentialId: 'admin', test: false };
  }

  private async insertKey(sql: Sql, id: string, userId: string, accountId: string, key: ReturnType<typeof generateApiKey>, test: boolean, at: Date) {
    await this.apiKeys.insert(sql, { id, userId, accountId, keyHash: key.hash, prefix: key.prefix, isTest: test, createdAt: at });
  }

  private async requireAccount(sql: Sql, accountId: string): Promise<void> {
    if (!(await this.accounts.exists(sql, accountId))) throw new AdminError(`no account ${accountId}`);
  }
}

function requiredText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length === 0 || text.length > max) throw new AdminError(`${field} must have 1 to ${max} characters`);
  return text;
}

function optionalEmail(value: string | undefined): string | null {
  if (value === undefined) return null;
  const email = parseEmail(value);
  if (email === null) throw new AdminError(`invalid e-mail address: ${value}`);
  return email;
}

function requiredPhone(value: string) {
  const phone = parsePhone(value);
  if (phone === null) throw new AdminError(`invalid phone number (international form expected): ${value}`);
  return phone;
}

function amountOf(field: string, value: number | string, { allowZero }: { allowZero: boolean }): number {
  const hundredths = toHundredths(value);
  if (hundredths === null || hundredths < 0 || (!allowZero && hundredths === 0)) {
    throw new AdminError(`${field} must be a ${allowZero ? 'non-negative' : 'positive'} amount with at most two decimals`);
  }
  return hundredths;
}

/** Runs a service call of the API for the CLI: its refusals become the CLI's errors. */
async function asAdminError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw new AdminError(error.describe());
    throw error;
  }
}
