import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { ListQueryDto } from '../common/list/list-query.dto.js';
import { Page, type ListPage } from '../common/list/page.js';
import { parsePhone } from '../common/recipient.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { GroupRepository } from '../group/group.repository.js';
import { GROUP_NOT_FOUND } from '../group/group.service.js';
import { ContactWriter } from './contact-writer.js';
import { toContactDto } from './contact-dto.mapping.js';
import { ContactRepository } from './contact.repository.js';
import type { ContactDto } from './dto/contact.dto.js';
import type { AddMembersDto, AddResultDto, RemovedDto } from './dto/group-members.dto.js';

/** The members of a group: contacts, listed, added by id or phone, removed. */
@Injectable()
export class GroupMembersService {
  constructor(
    private readonly database: Database,
    private readonly contacts: ContactRepository,
    private readonly writer: ContactWriter,
    private readonly groups: GroupRepository,
    private readonly clock: Clock,
  ) {}

  list(principal: Principal, groupId: string, query: ListQueryDto): Promise<ListPage<ContactDto>> {
    const page = Page.of(query, { group: groupId });
    return this.inGroup(principal.accountId, groupId, false, async (sql) =>
      page.answer(await this.contacts.list(sql, principal.accountId, principal.test, { groupId }, page), (contact) => contact.id, toContactDto),
    );
  }

  /** Adds contacts by id and by phone; a phone the account has no contact for becomes one. */
  add(principal: Principal, groupId: string, dto: AddMembersDto): Promise<AddResultDto> {
    const rejected: AddResultDto['rejected'] = [];
    const phones = (dto.phones ?? []).flatMap((value) => {
      const phone = parsePhone(value, dto.default_country);
      if (!phone) rejected.push({ value, reason: 'numéro de téléphone invalide' });
      return phone ? [phone] : [];
    });
    const at = this.clock.now();
    return this.inGroup(principal.accountId, groupId, true, async (sql) => {
      const ids = [...new Set(dto.contact_ids ?? [])];
      const found = new Set((await this.contacts.findMany(sql, principal.accountId, ids, principal.test)).map((contact) => contact.id));
      for (const id of ids) if (!found.has(id)) rejected.push({ value: id, reason: 'contact non trouvé' });
      const outcomes = await this.writer.upsert(
        sql,
        phones.map((phone) => ({ phone })),
        { accountId: principal.accountId, createdBy: principal.userId, onDuplicate: 'skip', at },
      );
      const members = [...new Set([...found, ...outcomes.map((outcome) => (outcome as { id: string }).id)])];
      const added = await this.groups.addMembers(sql, groupId, members, at);
      return { added, already_member: members.length - added, created_contacts: outcomes.filter((outcome) => outcome.kind === 'created').length, rejected };
    });
  }

  remove(accountId: string, groupId: string, contactIds: readonly string[]): Promise<RemovedDto> {
    return this.inGroup(accountId, groupId, true, async (sql) => ({ removed: await this.groups.removeMembers(sql, groupId, [...new Set(contactIds)]) }));
  }

  /** Ends one membership; 404 when the contact is not a member of the group. */
  async removeOne(accountId: string, groupId: string, contactId: string): Promise<void> {
    const { removed } = isUuid(contactId) ? await this.remove(accountId, groupId, [contactId]) : await this.inGroup(accountId, groupId, false, async () => ({ removed: 0 }));
    if (removed === 0) throw ApiError.notFound('Contact non trouvé');
  }

  /** Runs `work` on one of the account's groups (locked when writing); 404 otherwise. */
  private async inGroup<T>(accountId: string, groupId: string, write: boolean, work: (sql: Sql) => Promise<T>): Promise<T> {
    const run = async (sql: Sql) => {
      const exists = write ? await this.groups.lock(sql, accountId, groupId) : (await this.groups.find(sql, accountId, groupId)) !== null;
      return exists ? { value: await work(sql) } : null;
    };
    const result = isUuid(groupId) ? await (write ? this.database.transaction(run) : this.database.run(run)) : null;
    if (!result) throw ApiError.notFound(GROUP_NOT_FOUND);
    return result.value;
  }
}
