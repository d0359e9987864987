import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { isPlainObject } from '../common/validation/request-validation.pipe.js';
import { Database } from '../database/database.js';
import { GroupRepository } from '../group/group.repository.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { ContactWriter, type ContactInput } from './contact-writer.js';
import { readContactInput } from './contact-dto.mapping.js';
import { ContactService } from './contact.service.js';
import type { BulkContactsDto, BulkResultDto } from './dto/bulk-contacts.dto.js';

/** `POST /contact/bulk`: each contact checked alone, the valid ones upserted in one transaction. */
@Injectable()
export class ContactBulkService {
  constructor(
    private readonly database: Database,
    private readonly writer: ContactWriter,
    private readonly contacts: ContactService,
    private readonly groups: GroupRepository,
    private readonly idempotency: Idempotency,
    private readonly clock: Clock,
  ) {}

  execute(principal: Principal, dto: BulkContactsDto, idempotency?: IdempotentRequest): Promise<BulkResultDto> {
    return this.idempotency.once(principal.accountId, idempotency, (scope) => this.upsert(principal, dto, scope));
  }

  private async upsert(principal: Principal, dto: BulkContactsDto, idempotency?: IdempotencyScope): Promise<BulkResultDto> {
    const refused: BulkResultDto['errors'] = [];
    const valid: Array<{ index: number; input: ContactInput }> = [];
    dto.contacts.forEach((item, index) => {
      if (!isPlainObject(item)) return refused.push({ index, errors: ['contact: doit être un objet JSON'] });
      const contact = readContactInput({ default_country: dto.default_country, ...item });
      if ('errors' in contact) return refused.push({ index, errors: contact.errors });
      valid.push({ index, input: contact.input });
    });
    const groupIds = [...new Set(dto.group_ids ?? [])];
    const at = this.clock.now();

    return this.database.transaction(async (sql) => {
      // counted afresh by each attempt: a unit that lost a conflict runs again
      const result: BulkResultDto = { created: 0, updated: 0, skipped: 0, errors: [...refused] };
      await this.contacts.requireGroups(sql, principal.accountId, groupIds);
      const outcomes = await this.writer.upsert(
        sql,
        valid.map((entry) => entry.input),
        { accountId: principal.accountId, createdBy: principal.userId, onDuplicate: dto.on_duplicate ?? 'skip', at },
      );
      const members: string[] = [];
      outcomes.forEach((outcome, n) => {
        if (outcome.kind === 'invalid') return result.errors.push({ index: valid[n]!.index, errors: outcome.errors });
        if (outcome.kind === 'created') result.created++;
        else if (outcome.kind === 'updated') result.updated++;
        else result.skipped++;
        members.push(outcome.id);
      });
      for (const groupId of groupIds) await this.groups.addMembers(sql, groupId, [...new Set(members)], at);
      result.errors.sort((a, b) => a.index - b.index);
      await idempotency?.recordSuccess(sql, result);
      return result;
    });
  }
}
