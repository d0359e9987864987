import { Injectable } from '@nestjs/common';
import { uuidV7Floor } from '../common/ids.js';
import { ReportReads } from '../database/report-reads.js';
import { multiRowInsert, readBoolean, type Param, type Sql } from '../database/sql.js';
import type { CodeRange } from './conversion-window.js';
import { scopeKey, type FraudScope } from './fraud-state.repository.js';
import type { BlockScope } from './fraud-state.js';

/** A prefix or country of an account whose codes were sent and verified so many times. */
export interface Tally extends FraudScope {
  scope: BlockScope;
  value: string;
  sent: number;
  verified: number;
}

interface CodesRow {
  account_id: string;
  is_test: unknown;
  country: string | null;
  prefix: string | null;
  sent: number | string;
  verified: number | string;
}

interface TallyRow {
  account_id: string;
  sandbox: unknown;
  scope: BlockScope;
  value: string;
  sent: number | string;
  verified: number | string;
}

const COLUMNS = ['account_id', 'sandbox', 'scope', 'value', 'sent', 'verified'];
/** Rows a statement writes at most. */
const CHUNK = 500;

/** Adds a tally (`sign` -1: takes it out) to the one of its key. */
function accumulate(tallies: Map<string, Tally>, tally: Tally, sign: 1 | -1): void {
  const key = `${scopeKey(tally)}:${tally.scope}:${tally.value}`;
  const sum = tallies.get(key) ?? { ...tally, sent: 0, verified: 0 };
  sum.sent += sign * tally.sent;
  sum.verified += sign * tally.verified;
  tallies.set(key, sum);
}

/**
 * The low-conversion job's counts (migration FraudConversionTally): the codes
 * it counted per account, key mode, country and prefix, kept from one run to
 * the next (the time they were counted to is the job's row's).
 */
@Injectable()
export class ConversionTallyRepository {
  constructor(private readonly reports: ReportReads) {}

  /** The codes of the range per account, mode, country and prefix: how many, and how many verified (a range of primary keys, UUID v7). */
  async codes(range: CodeRange): Promise<Tally[]> {
    const ended = range.endedAfter ? 'expires_at > ? AND expires_at <= ?' : 'expires_at <= ?';
    const rows = await this.reports.all<CodesRow>(
      `SELECT account_id, is_test, country, prefix, COUNT(*) AS sent, SUM(CASE WHEN status = 'verified' THEN 1 ELSE 0 END) AS verified
         FROM otp
        WHERE uniq_id >= ? AND uniq_id < ? AND ${ended} AND country IS NOT NULL
        GROUP BY account_id, is_test, country, prefix`,
      [uuidV7Floor(range.createdFrom), uuidV7Floor(range.createdTo), ...(range.endedAfter ? [range.endedAfter] : []), range.endedBy],
    );
    const tallies = new Map<string, Tally>();
    for (const row of rows) {
      const sandbox = readBoolean(row.is_test);
      for (const [scope, value] of [['country', row.country], ['prefix', row.prefix]] as const) {
        if (value !== null) accumulate(tallies, { accountId: row.account_id, sandbox, scope, value, sent: Number(row.sent), verified: Number(row.verified) }, 1);
      }
    }
    return [...tallies.values()];
  }

  /** Adds the codes that join to the counts and takes out those that leave; counts that fall to nothing go. */
  async change(sql: Sql, joining: readonly Tally[], leaving: readonly Tally[]): Promise<void> {
    const changes = new Map<string, Tally>();
    joining.forEach((tally) => accumulate(changes, tally, 1));
    leaving.forEach((tally) => accumulate(changes, tally, -1));
    const rows = [...changes.values()].filter((change) => change.sent !== 0 || change.verified !== 0);
    const onKey =
      sql.dialect === 'mysql'
        ? 'ON DUPLICATE KEY UPDATE sent = sent + VALUES(sent), verified = verified + VALUES(verified)'
        : 'ON CONFLICT (account_id, sandbox, scope, value) DO UPDATE SET sent = sent + excluded.sent, verified = verified + excluded.verified';
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      const params: Param[] = chunk.flatMap((row) => [row.accountId, row.sandbox, row.scope, row.value, row.sent, row.verified]);
      await sql.run(`${multiRowInsert('fraud_conversion_tally', COLUMNS, chunk.length)} ${onKey}`, params);
    }
    if (leaving.length > 0) await sql.run('DELETE FROM fraud_conversion_tally WHERE sent <= 0');
  }

  /** The counts of at least `fewest` codes. */
  async atLeast(sql: Sql, fewest: number): Promise<Tally[]> {
    const rows = await sql.all<TallyRow>('SELECT account_id, sandbox, scope, value, sent, verified FROM fraud_conversion_tally WHERE sent >= ?', [fewest]);
    return rows.map((row) => ({
      accountId: row.account_id,
      sandbox: readBoolean(row.sandbox),
      scope: row.scope,
      value: row.value,
      sent: Number(row.sent),
      verified: Number(row.verified),
    }));
  }
}
