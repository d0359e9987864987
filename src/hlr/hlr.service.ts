import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { Page, type ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { HlrLookupDto, HlrQueryDto } from './dto/hlr-lookup.dto.js';
import { toHlrLookupDto } from './hlr-dto.mapping.js';
import { HlrLookupRepository, type HlrLookupRecord } from './hlr-lookup.repository.js';

export const HLR_NOT_FOUND = 'id: aucune recherche HLR pour cet identifiant ou ce lot';

/** Reading lookups of the calling key's mode: one by id (or the first of a lot), or a page. */
@Injectable()
export class HlrService {
  constructor(
    private readonly database: Database,
    private readonly lookups: HlrLookupRepository,
  ) {}

  async findOne(principal: Principal, idOrLot: string): Promise<HlrLookupDto> {
    const found = await this.database.run((sql) => this.lookups.find(sql, principal.accountId, principal.test, idOrLot));
    if (!found) throw ApiError.notFound('Non trouvé', [HLR_NOT_FOUND]);
    return toHlrLookupDto(found);
  }

  list(principal: Principal, query: HlrQueryDto): Promise<ListPage<HlrLookupDto>> {
    const filters = { lot: query.lot, status: query.status };
    const page = Page.of(query, filters);
    return this.database.run(async (sql) =>
      page.answer(await this.lookups.list(sql, principal.accountId, principal.test, filters, page), (lookup: HlrLookupRecord) => lookup.id, toHlrLookupDto),
    );
  }
}
