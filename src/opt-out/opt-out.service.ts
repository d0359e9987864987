import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { createdRange, Page, type ListPage } from '../common/list/page.js';
import { parsePhone } from '../common/recipient.js';
import { Database } from '../database/database.js';
import type { AddOptOutsDto, AddOptOutsResultDto, OptOutDto, OptOutQueryDto } from './dto/opt-out.dto.js';
import { OptOutWriter } from './opt-out-writer.js';
import { OptOutRepository, type OptOutRecord, type OptOutSource } from './opt-out.repository.js';

export const NOT_LISTED = "phone: ce numéro n'est pas sur la liste des désinscrits";
export const RECIPIENT_ONLY = 'phone: seul le destinataire peut se réabonner (START)';

/** Whose list a change is made to: an account's, in one mode (a sandbox key's list is its own). */
export interface OptOutList {
  accountId: string;
  sandbox: boolean;
}

/** The opt-out list through the API and the command line (SPEC-2 §3). */
@Injectable()
export class OptOutService {
  constructor(
    private readonly database: Database,
    private readonly optOuts: OptOutRepository,
    private readonly writer: OptOutWriter,
    private readonly clock: Clock,
  ) {}

  /** `POST /opt-out`: every number must be valid, or nothing is listed. */
  add(principal: Principal, dto: AddOptOutsDto): Promise<AddOptOutsResultDto> {
    const errors: string[] = [];
    const phones = dto.phones.flatMap((value, index) => {
      const phone = parsePhone(value, dto.default_country);
      if (!phone) errors.push(`phones[${index}]: numéro de téléphone invalide`);
      return phone ? [phone.e164] : [];
    });
    if (errors.length > 0) throw ApiError.validation(errors);
    return this.addNumbers({ accountId: principal.accountId, sandbox: principal.test }, phones, 'api', principal.userId);
  }

  /** Puts E.164 numbers on the list; `already` counts those that were on it (each number once). */
  async addNumbers(list: OptOutList, phones: readonly string[], source: OptOutSource, createdBy: string | null): Promise<AddOptOutsResultDto> {
    const distinct = new Set(phones).size;
    const at = this.clock.now();
    const added = await this.database.transaction((sql) => this.writer.add(sql, phones, { ...list, source, createdBy, at }));
    return { added: added.length, already: distinct - added.length };
  }

  list(principal: Principal, query: OptOutQueryDto): Promise<ListPage<OptOutDto>> {
    const page = Page.of(query, { source: query.source, from: query.created_from, to: query.created_to });
    const idRange = createdRange('id', dateOf(query.created_from), dateOf(query.created_to));
    return this.database.run(async (sql) =>
      page.answer(await this.optOuts.list(sql, principal.accountId, principal.test, { source: query.source, idRange }, page), (entry) => entry.id, toOptOutDto),
    );
  }

  /**
   * Re-subscribes a number (`phone` in international form, `+` optional).
   * 404 when it is not on the list; 409 when only its recipient can undo its entry (STOP), as Twilio rules.
   */
  async remove(list: OptOutList, phoneText: string, source: OptOutSource): Promise<void> {
    const phone = parsePhone(phoneText)?.e164;
    const refusal = phone
      ? await this.database.transaction((sql) => this.writer.remove(sql, phone, { ...list, source, at: this.clock.now() }))
      : 'not-listed';
    if (refusal === 'not-listed') throw ApiError.notFound('Non trouvé', [NOT_LISTED]);
    if (refusal === 'recipient-only') throw ApiError.conflict('transition_invalide', [RECIPIENT_ONLY]);
  }
}

const dateOf = (text: string | undefined): Date | undefined => (text === undefined ? undefined : new Date(text));

export const toOptOutDto = (entry: OptOutRecord): OptOutDto => ({
  id: entry.id,
  phone: entry.phone,
  source: entry.source,
  keyword: entry.keyword,
  sender_id: entry.senderId,
  created_by: entry.createdBy,
  created_at: entry.createdAt.toISOString(),
});
