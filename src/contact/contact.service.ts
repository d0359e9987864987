import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { GroupRepository } from '../group/group.repository.js';
import { applyInput, ContactWriter } from './contact-writer.js';
import { toContactDto, toContactInput } from './contact-dto.mapping.js';
import { ContactRepository, type ContactFilters } from './contact.repository.js';
import type { ContactDetailDto, ContactDto } from './dto/contact.dto.js';
import type { CreateContactDto, UpdateContactDto } from './dto/contact-input.dto.js';
import type { ContactQueryDto } from './dto/contact-query.dto.js';
import { contactSearchKey } from './search-key.js';

export const CONTACT_NOT_FOUND = 'Contact non trouvé';

@Injectable()
export class ContactService {
  constructor(
    private readonly database: Database,
    private readonly contacts: ContactRepository,
    private readonly writer: ContactWriter,
    private readonly groups: GroupRepository,
    private readonly clock: Clock,
  ) {}

  /** A new contact, in the groups given; 409 when the account has a contact with that phone. */
  async create(principal: Principal, dto: CreateContactDto): Promise<ContactDto> {
    const input = toContactInput(dto);
    const groupIds = [...new Set(dto.group_ids ?? [])];
    const at = this.clock.now();
    const id = await this.database.transaction(async (sql) => {
      await this.requireGroups(sql, principal.accountId, groupIds);
      const [outcome] = await this.writer.upsert(sql, [input], { accountId: principal.accountId, createdBy: principal.userId, onDuplicate: 'skip', at });
      if (outcome!.kind !== 'created') throw phoneTaken((outcome as { id: string }).id);
      for (const groupId of groupIds) await this.groups.addMembers(sql, groupId, [outcome!.id], at);
      return outcome!.id;
    });
    return toContactDto((await this.database.run((sql) => this.contacts.find(sql, principal.accountId, id, principal.test)))!);
  }

  async findOne(principal: Principal, id: string): Promise<ContactDetailDto> {
    const found = isUuid(id)
      ? await this.database.run(async (sql) => {
          const contact = await this.contacts.find(sql, principal.accountId, id, principal.test);
          return contact && { contact, groupIds: await this.groups.groupsOf(sql, id) };
        })
      : null;
    if (!found) throw ApiError.notFound(CONTACT_NOT_FOUND);
    return { ...toContactDto(found.contact), group_ids: found.groupIds };
  }

  list(principal: Principal, query: ContactQueryDto): Promise<ListPage<ContactDto>> {
    const filters = contactFilters(query);
    const page = Page.of(query, { q: query.q, group: query.group_id, opted_out: query.opted_out, from: query.created_from, to: query.created_to });
    return this.database.run(async (sql) =>
      page.answer(await this.contacts.list(sql, principal.accountId, principal.test, filters, page), (contact) => contact.id, toContactDto),
    );
  }

  /** Writes the fields given (`attributes` replaced whole); 409 when the new phone is another contact's. */
  async update(principal: Principal, id: string, dto: UpdateContactDto): Promise<ContactDto> {
    const input = toContactInput(dto);
    const updated =
      isUuid(id) &&
      (await this.database.transaction(async (sql) => {
        const columns = await this.contacts.lock(sql, principal.accountId, id);
        if (!columns) return false;
        const next = applyInput(columns, input);
        if (next.phone !== columns.phone) await this.refuseTakenPhone(sql, principal.accountId, next.phone);
        try {
          return await this.contacts.update(sql, principal.accountId, id, next, this.clock.now());
        } catch (error) {
          if (isUniqueViolation(error)) throw phoneTaken('?');
          throw error;
        }
      }));
    if (!updated) throw ApiError.notFound(CONTACT_NOT_FOUND);
    return toContactDto((await this.database.run((sql) => this.contacts.find(sql, principal.accountId, id, principal.test)))!);
  }

  /** Deletes the contact and its memberships; its messages keep their `contact_id`, its opt-out entry stays. */
  async delete(accountId: string, id: string): Promise<void> {
    const deleted =
      isUuid(id) &&
      (await this.database.transaction(async (sql) => {
        if (!(await this.contacts.lock(sql, accountId, id))) return false;
        await this.groups.endMembershipsOf(sql, id);
        return this.contacts.delete(sql, accountId, id);
      }));
    if (!deleted) throw ApiError.notFound(CONTACT_NOT_FOUND);
  }

  /** 400 naming the first of `groupIds` that is not a group of the account. */
  async requireGroups(sql: Sql, accountId: string, groupIds: readonly string[]): Promise<void> {
    const existing = await this.groups.existing(sql, accountId, groupIds);
    const missing = groupIds.findIndex((groupId) => !existing.has(groupId));
    if (missing >= 0) throw ApiError.invalidField(`group_ids[${missing}]`, 'groupe non trouvé');
  }

  private async refuseTakenPhone(sql: Sql, accountId: string, phone: string): Promise<void> {
    const holder = await this.contacts.findByPhone(sql, accountId, phone);
    if (holder) throw phoneTaken(holder.id);
  }
}

export const phoneTaken = (holder: string): ApiError => ApiError.conflict('deja_existant', [`phone: un contact existe déjà (id ${holder})`]);

function contactFilters(query: ContactQueryDto): ContactFilters {
  const q = query.q?.trim();
  const digits = q?.replace(/[\s().+-]/g, '');
  return {
    nameOrEmail: q ? { name: contactSearchKey(q), email: q.toLowerCase() } : undefined,
    phonePrefix: digits && /^\d+$/.test(digits) ? `+${digits.replace(/^00/, '')}` : undefined,
    groupId: query.group_id,
    optedOut: query.opted_out === undefined ? undefined : query.opted_out === 'true',
    createdFrom: query.created_from === undefined ? undefined : new Date(query.created_from),
    createdTo: query.created_to === undefined ? undefined : new Date(query.created_to),
  };
}

