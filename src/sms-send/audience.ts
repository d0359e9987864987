import { Inject, Injectable } from '@nestjs/common';
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js';
import { ApiError } from '../common/errors/api-error.js';
import { parsePhone } from '../common/recipient.js';
import { smsConfig, type SmsConfig } from '../config/sms.config.js';
import type { Sql } from '../database/sql.js';
import { GroupRepository } from '../group/group.repository.js';
import { OptOutRepository } from '../opt-out/opt-out.repository.js';
import { AudienceRepository, type AudienceContact } from './audience.repository.js';
import type { RejectionReason } from './dto/send-result.dto.js';

/** One number a send reaches, with the contact that personalises it (the account's contact with that number). */
export interface Recipient {
  phone: string;
  dialCode: string;
  country: string | null;
  contact: AudienceContact | null;
}

export interface Rejection {
  to: string;
  reason: RejectionReason;
}

/** Whom a send names: numbers as given, contacts and groups of the account. */
export interface AudienceRequest {
  accountId: string;
  sandbox: boolean;
  to: readonly string[];
  contactIds: readonly string[];
  groupIds: readonly string[];
  defaultCountry: string | undefined;
}

/**
 * SPEC-2 §1.1 steps 1–4: numbers, then contacts, then group members (as they
 * are now), normalised to E.164; the first occurrence of a number wins, later
 * ones are `doublon`; numbers on the opt-out list of the key's mode are
 * `desinscrit`. An unknown contact or group fails the request (400), as does
 * an audience larger than `SMS_MAX_RECIPIENTS_PER_REQUEST`.
 */
@Injectable()
export class Audience {
  constructor(
    private readonly reads: AudienceRepository,
    private readonly groups: GroupRepository,
    private readonly optOuts: OptOutRepository,
    @Inject(smsConfig.KEY) private readonly config: SmsConfig,
  ) {}

  async expand(sql: Sql, request: AudienceRequest): Promise<{ recipients: Recipient[]; rejected: Rejection[] }> {
    const rejected: Rejection[] = [];
    const byPhone = new Map<string, Recipient>();
    const add = (given: string, recipient: Recipient) => {
      if (byPhone.has(recipient.phone)) rejected.push({ to: given, reason: 'doublon' });
      else byPhone.set(recipient.phone, recipient);
    };

    for (const given of request.to) {
      const phone = parsePhone(given, request.defaultCountry);
      if (phone) add(given, { phone: phone.e164, dialCode: phone.dialCode, country: phone.country, contact: null });
      else rejected.push({ to: given, reason: 'numero_invalide' });
    }
    const numbersGiven = [...byPhone.keys()];
    for (const contact of await this.reads.contactsByPhone(sql, request.accountId, numbersGiven)) byPhone.get(contact.phone)!.contact = contact;

    for (const contact of await this.contacts(sql, request)) add(contact.phone, fromContact(contact));
    for (const groupId of await this.checkedGroups(sql, request)) {
      for (const contact of await this.reads.members(sql, groupId, this.config.maxRecipients + 1)) add(contact.phone, fromContact(contact));
      this.checkSize(byPhone.size);
    }
    this.checkSize(byPhone.size);

    const optedOut = await this.optOuts.listed(sql, request.accountId, request.sandbox, [...byPhone.keys()]);
    const recipients: Recipient[] = [];
    for (const recipient of byPhone.values()) {
      if (optedOut.has(recipient.phone)) rejected.push({ to: recipient.phone, reason: 'desinscrit' });
      else recipients.push(recipient);
    }
    return { recipients, rejected };
  }

  /** The contacts named by id, in the order given; 400 for any the account does not have. */
  private async contacts(sql: Sql, request: AudienceRequest): Promise<AudienceContact[]> {
    if (request.contactIds.length === 0) return [];
    const found = new Map((await this.reads.contacts(sql, request.accountId, request.contactIds)).map((contact) => [contact.id, contact]));
    const unknown = request.contactIds.flatMap((id, index) => (found.has(id) ? [] : [`contact_ids[${index}]: contact inconnu`]));
    if (unknown.length > 0) throw ApiError.validation(unknown);
    return request.contactIds.map((id) => found.get(id)!);
  }

  private async checkedGroups(sql: Sql, request: AudienceRequest): Promise<readonly string[]> {
    if (request.groupIds.length === 0) return [];
    const existing = await this.groups.existing(sql, request.accountId, request.groupIds);
    const unknown = request.groupIds.flatMap((id, index) => (existing.has(id) ? [] : [`group_ids[${index}]: groupe inconnu`]));
    if (unknown.length > 0) throw ApiError.validation(unknown);
    return request.groupIds;
  }

  private checkSize(count: number): void {
    const most = this.config.maxRecipients;
    if (count > most) throw ApiError.invalidField('to', `au plus ${most} destinataires par requête ; utilisez une campagne`);
  }
}

/** A stored contact's number is E.164 already; its country gives the calling code without parsing it again. */
function fromContact(contact: AudienceContact): Recipient {
  if (contact.country && isSupportedCountry(contact.country)) {
    return { phone: contact.phone, dialCode: `+${getCountryCallingCode(contact.country)}`, country: contact.country, contact };
  }
  const parsed = parsePhone(contact.phone);
  return { phone: contact.phone, dialCode: parsed?.dialCode ?? '', country: parsed?.country ?? null, contact };
}
