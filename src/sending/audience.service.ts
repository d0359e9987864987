import { Inject, Injectable } from '@nestjs/common';
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js';
import { ApiError } from '../common/errors/api-error.js';
import { parsePhone, readPhone } from '../common/recipient.js';
import { smsConfig, type SmsConfig } from '../config/sms.config.js';
import type { Sql } from '../database/sql.js';
import { GroupRepository } from '../group/group.repository.js';
import { OptOutRepository } from '../opt-out/opt-out.repository.js';
import { AudienceRepository, type AudienceContact } from './audience.repository.js';
import type { Rejection } from './rejection.js';

/** One number a send reaches, with the contact that personalises it (the account's contact with that number). */
export interface Recipient {
  phone: string;
  dialCode: string;
  country: string | null;
  contact: AudienceContact | null;
}

/** Whom a send names: numbers as given, contacts and groups of the account. */
export interface AudienceRequest {
  accountId: string;
  sandbox: boolean;
  to: readonly string[];
  contactIds: readonly string[];
  groupIds: readonly string[];
  defaultCountry: string | undefined;
  /** Groups whose members are left out, silently (a campaign's `exclude_group_ids`). */
  excludeGroupIds?: readonly string[];
  /** At most this many recipients, else a 400 on `field`; by default `SMS_MAX_RECIPIENTS_PER_REQUEST` on `to`. */
  limit?: AudienceLimit;
}

export interface AudienceLimit {
  most: number;
  field: string;
  problem: string;
}

/** Up to this many numbers, a send's contact and opt-out reads share one round trip. */
const NUMBERS_READ_TOGETHER = 100;

/**
 * SPEC-2 §1.1 steps 1–4: numbers, then contacts, then group members (as they
 * are now), normalised to E.164; the first occurrence of a number wins, later
 * ones are `doublon`; numbers on the opt-out list of the key's mode are
 * `desinscrit`; members of excluded groups are left out. An unknown contact or
 * group fails the request (400), as does an audience larger than its limit.
 */
@Injectable()
export class Audience {
  constructor(
    private readonly reads: AudienceRepository,
    private readonly groups: GroupRepository,
    private readonly optOuts: OptOutRepository,
    @Inject(smsConfig.KEY) private readonly config: SmsConfig,
  ) {}

  /** `excludedByGroup`: members met that an excluded group left out, each time met. */
  async expand(sql: Sql, request: AudienceRequest): Promise<{ recipients: Recipient[]; rejected: Rejection[]; excludedByGroup: number }> {
    const limit = request.limit ?? {
      most: this.config.maxRecipients,
      field: 'to',
      problem: `au plus ${this.config.maxRecipients} destinataires par requête ; utilisez une campagne`,
    };
    const excluded = await this.excludedPhones(sql, request);
    const rejected: Rejection[] = [];
    const byPhone = new Map<string, Recipient>();
    let excludedByGroup = 0;
    const add = (given: string, recipient: Recipient) => {
      if (excluded.has(recipient.phone)) excludedByGroup++;
      else if (byPhone.has(recipient.phone)) rejected.push({ to: given, reason: 'doublon' });
      else byPhone.set(recipient.phone, recipient);
    };

    // a list's numbers are mostly new: kept in the cache of recent parses, they would only churn it
    const parse = request.to.length > 1 ? readPhone : parsePhone;
    for (const given of request.to) {
      const phone = parse(given, request.defaultCountry);
      if (phone) add(given, { phone: phone.e164, dialCode: phone.dialCode, country: phone.country, contact: null });
      else rejected.push({ to: given, reason: 'numero_invalide' });
    }
    const numbersGiven = [...byPhone.keys()];
    // a few numbers alone: their contacts and their opt-outs are read together (longer lists, read in turn, reach the
    // account's row later: fewer of them wait there at once holding their messages, which costs less collection)
    const onlyNumbers = request.contactIds.length === 0 && request.groupIds.length === 0 && numbersGiven.length <= NUMBERS_READ_TOGETHER;
    const given = onlyNumbers
      ? await this.reads.contactsAndOptOutsByPhone(sql, request.accountId, request.sandbox, numbersGiven)
      : { contacts: await this.reads.contactsByPhone(sql, request.accountId, numbersGiven), optedOut: undefined };
    for (const contact of given.contacts) byPhone.get(contact.phone)!.contact = contact;

    for (const contact of await this.contacts(sql, request)) add(contact.phone, fromContact(contact));
    for (const groupId of await this.checkedGroups(sql, request.accountId, 'group_ids', request.groupIds)) {
      for (const contact of await this.reads.members(sql, groupId, limit.most + excluded.size + 1)) add(contact.phone, fromContact(contact));
      checkSize(byPhone.size, limit);
    }
    checkSize(byPhone.size, limit);

    const optedOut = given.optedOut ?? (await this.optOuts.listed(sql, request.accountId, request.sandbox, [...byPhone.keys()]));
    const recipients: Recipient[] = [];
    for (const recipient of byPhone.values()) {
      if (optedOut.has(recipient.phone)) rejected.push({ to: recipient.phone, reason: 'desinscrit' });
      else recipients.push(recipient);
    }
    return { recipients, rejected, excludedByGroup };
  }

  /** The contacts named by id, in the order given; 400 for any the account does not have. */
  private async contacts(sql: Sql, request: AudienceRequest): Promise<AudienceContact[]> {
    if (request.contactIds.length === 0) return [];
    const found = new Map((await this.reads.contacts(sql, request.accountId, request.contactIds)).map((contact) => [contact.id, contact]));
    const unknown = request.contactIds.flatMap((id, index) => (found.has(id) ? [] : [`contact_ids[${index}]: contact inconnu`]));
    if (unknown.length > 0) throw ApiError.validation(unknown);
    return request.contactIds.map((id) => found.get(id)!);
  }

  private async excludedPhones(sql: Sql, request: AudienceRequest): Promise<Set<string>> {
    const phones = new Set<string>();
    for (const groupId of await this.checkedGroups(sql, request.accountId, 'exclude_group_ids', request.excludeGroupIds ?? [])) {
      for (const phone of await this.reads.memberPhones(sql, groupId)) phones.add(phone);
    }
    return phones;
  }

  private async checkedGroups(sql: Sql, accountId: string, field: string, groupIds: readonly string[]): Promise<readonly string[]> {
    if (groupIds.length === 0) return [];
    const existing = await this.groups.existing(sql, accountId, groupIds);
    const unknown = groupIds.flatMap((id, index) => (existing.has(id) ? [] : [`${field}[${index}]: groupe inconnu`]));
    if (unknown.length > 0) throw ApiError.validation(unknown);
    return groupIds;
  }
}

function checkSize(count: number, limit: AudienceLimit): void {
  if (count > limit.most) throw ApiError.invalidField(limit.field, limit.problem);
}

/** A stored contact's number is E.164 already; its country gives the calling code without parsing it again. */
function fromContact(contact: AudienceContact): Recipient {
  if (contact.country && isSupportedCountry(contact.country)) {
    return { phone: contact.phone, dialCode: `+${getCountryCallingCode(contact.country)}`, country: contact.country, contact };
  }
  const parsed = parsePhone(contact.phone);
  return { phone: contact.phone, dialCode: parsed?.dialCode ?? '', country: parsed?.country ?? null, contact };
}
