import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

/** Where the records that events report on keep their last attempt (`webhook_response`). */
export interface WebhookSubjectStore {
  recordResponse(sql: Sql, subjectId: string, response: string): Promise<void>;
}

/**
 * The modules whose records carry `webhook_response` register here, by the
 * prefix of their event types (`sms`, later `hlr`): the dispatcher writes the
 * last attempt there without knowing the record.
 */
@Injectable()
export class WebhookSubjects {
  private readonly stores = new Map<string, WebhookSubjectStore>();

  register(prefix: string, store: WebhookSubjectStore): void {
    this.stores.set(prefix, store);
  }

  for(type: string): WebhookSubjectStore | undefined {
    return this.stores.get(type.slice(0, type.indexOf('.')));
  }
}
