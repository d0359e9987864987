import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid, newId } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { SenderDto } from './dto/sender.dto.js';
import type { CreateSenderDto, SenderQueryDto } from './dto/sender-input.dto.js';
import { SenderRepository, type SenderRecord } from './sender.repository.js';

export const SENDER_NOT_FOUND = 'Expéditeur non trouvé';

/** Sender IDs as the account sees them: requested, listed, withdrawn, made the default. */
@Injectable()
export class SenderService {
  constructor(
    private readonly database: Database,
    private readonly senders: SenderRepository,
    private readonly clock: Clock,
  ) {}

  /** A request for a sender ID, pending until an operator reviews it; 409 while the name is pending or approved. */
  async request(principal: Principal, dto: CreateSenderDto): Promise<SenderDto> {
    const at = this.clock.now();
    const id = newId(at);
    const sender = {
      id,
      accountId: principal.accountId,
      name: dto.name,
      status: 'pending' as const,
      useCase: dto.use_case.trim(),
      sampleMessage: dto.sample_message ?? null,
      countries: dto.countries ? [...new Set(dto.countries)] : null,
      createdBy: principal.userId,
      at,
    };
    await this.database.transaction(async (sql) => {
      const holder = await this.senders.findByName(sql, principal.accountId, dto.name);
      if (holder && holder.status !== 'rejected') throw nameTaken(holder.id);
      try {
        await this.senders.insert(sql, sender);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken('?');
        throw error;
      }
    });
    return this.findOne(principal.accountId, id);
  }

  async findOne(accountId: string, id: string): Promise<SenderDto> {
    const sender = isUuid(id) ? await this.database.run((sql) => this.senders.find(sql, accountId, id)) : null;
    if (!sender) throw ApiError.notFound(SENDER_NOT_FOUND);
    return toSenderDto(sender);
  }

  list(accountId: string, query: SenderQueryDto): Promise<ListPage<SenderDto>> {
    const page = Page.of(query, { status: query.status });
    return this.database.run(async (sql) => page.answer(await this.senders.list(sql, accountId, query.status, page), (sender) => sender.id, toSenderDto));
  }

  /** Withdraws a pending or rejected request; an approved sender stays (409). */
  async withdraw(accountId: string, id: string): Promise<void> {
    await this.inState(accountId, id, ['pending', 'rejected'], 'status: seul un expéditeur en attente ou refusé peut être retiré', (sql) =>
      this.senders.delete(sql, accountId, id),
    );
  }

  /** Makes an approved sender the one sends use when they name none. */
  async makeDefault(accountId: string, id: string): Promise<SenderDto> {
    await this.inState(accountId, id, ['approved'], 'status: seul un expéditeur approuvé peut être celui par défaut', (sql) =>
      this.senders.makeDefault(sql, accountId, id),
    );
    return this.findOne(accountId, id);
  }

  private async inState(accountId: string, id: string, states: string[], refusal: string, change: (sql: Sql) => Promise<unknown>) {
    const found = isUuid(id) && (await this.database.transaction(async (sql) => {
      const sender = await this.senders.find(sql, accountId, id, true);
      if (!sender) return false;
      if (!states.includes(sender.status)) throw ApiError.conflict('transition_invalide', [refusal]);
      await change(sql);
      return true;
    }));
    if (!found) throw ApiError.notFound(SENDER_NOT_FOUND);
  }
}

const nameTaken = (holder: string): ApiError => ApiError.conflict('deja_existant', [`name: un expéditeur de ce nom est déjà en attente ou approuvé (id ${holder})`]);

export const toSenderDto = (sender: SenderRecord): SenderDto => ({
  id: sender.id,
  company_id: sender.accountId,
  name: sender.name,
  status: sender.status,
  is_default: sender.isDefault,
  use_case: sender.useCase,
  sample_message: sender.sampleMessage,
  countries: sender.countries,
  email: sender.email,
  phone: sender.phone,
  rejection_reason: sender.rejectionReason,
  created_by: sender.createdBy,
  created_at: sender.createdAt.toISOString(),
  reviewed_at: sender.reviewedAt?.toISOString() ?? null,
});
