import { Injectable } from '@nestjs/common';
import { readTime, type Sql } from '../database/sql.js';
import type { SubmitAttempt } from '../delivery/submit-log.js';

/** Every submit of a message to a connector and what became of it, in order (the operator's view of a message). */
@Injectable()
export class MessageAttemptRepository {
  /** The attempts of several messages, in multi-row statements. */
  async add(sql: Sql, messages: ReadonlyArray<{ recordId: string; attempts: readonly SubmitAttempt[] }>): Promise<void> {
    await sql.insertManyLater(
      'message_attempt',
      messages.flatMap(({ recordId, attempts }) =>
        attempts.map((attempt) => ({ uniq_id: recordId, connector: attempt.connector, outcome: attempt.outcome, at: attempt.at })),
      ),
    );
  }

  async of(sql: Sql, uniqId: string): Promise<SubmitAttempt[]> {
    const rows = await sql.all<{ connector: string; outcome: SubmitAttempt['outcome']; at: string | Date }>(
      'SELECT connector, outcome, at FROM message_attempt WHERE uniq_id = ? ORDER BY id',
      [uniqId],
    );
    return rows.map((row) => ({ connector: row.connector, outcome: row.outcome, at: readTime(row.at) }));
  }
}
