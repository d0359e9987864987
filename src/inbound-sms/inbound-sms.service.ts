import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { createdRange, Page, type ListPage } from '../common/list/page.js';
import { parsePhone, PHONE_INVALID } from '../common/recipient.js';
import { Database } from '../database/database.js';
import type { MessageInDto, MessageInQueryDto } from './dto/message-in.dto.js';
import { toMessageInDto } from './message-in-view.js';
import { MessageInRepository, type MessageInRecord } from './message-in.repository.js';

/** `GET /sms/in`: the account's inbound SMS. */
@Injectable()
export class InboundSmsService {
  constructor(
    private readonly database: Database,
    private readonly messages: MessageInRepository,
  ) {}

  list(principal: Principal, query: MessageInQueryDto): Promise<ListPage<MessageInDto>> {
    const from = query.from === undefined ? undefined : parsePhone(query.from)?.e164;
    if (query.from !== undefined && from === undefined) throw ApiError.validation([`from: ${PHONE_INVALID}`]);
    const page = Page.of(query, { from, keyword: query.keyword, created_from: query.created_from, created_to: query.created_to });
    // inbound traffic is live: a sandbox key has none
    if (principal.test) return Promise.resolve(page.answer([], (message: MessageInRecord) => message.id, toMessageInDto));
    const idRange = createdRange('id', dateOf(query.created_from), dateOf(query.created_to));
    return this.database.run(async (sql) =>
      page.answer(await this.messages.list(sql, principal.accountId, { from, keyword: query.keyword, idRange }, page), (message) => message.id, toMessageInDto),
    );
  }
}

const dateOf = (text: string | undefined): Date | undefined => (text === undefined ? undefined : new Date(text));

