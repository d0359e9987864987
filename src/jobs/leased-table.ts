import { placeholders, type Param, type Sql } from '../database/sql.js';
import { LeaseLost, type Lease } from './lease.js';

/** Extra conditions on the rows a queue claims, ANDed with `available_at <= now`: a lane, led by its index. */
export interface ClaimFilter {
  where: string;
  params: readonly Param[];
}

/**
 * The claim protocol on a table of jobs, the same for every queue: a row is
 * due when its `available_at` has passed; claiming it moves `available_at` to
 * the end of the lease, names the holder in `claimed_by` and counts the
 * attempt, in the claiming transaction. On MySQL other instances skip the rows
 * one holds (`FOR UPDATE SKIP LOCKED`); SQLite has a single writer. The table
 * has `id`, `available_at`, `claimed_by` and `attempts` columns and an index
 * on `(available_at, id)`.
 */
export class LeasedTable {
  private readonly select: string;

  constructor(
    readonly table: string,
    columns: readonly string[],
  ) {
    this.select = `SELECT ${columns.join(', ')} FROM ${table}`;
  }

  /**
   * Up to `limit` due rows, oldest first, now leased to `lease.owner`. With
   * `weight` (a column counting what a row holds), `limit` counts that instead:
   * whole rows are taken until they hold `limit` or more.
   */
  async claim<Row extends { id: number | string }>(sql: Sql, lease: Lease, now: Date, limit: number, filter?: ClaimFilter, weight?: string): Promise<Row[]> {
    const due = `available_at <= ?${filter ? ` AND ${filter.where}` : ''} ORDER BY available_at, id`;
    const params = [now, ...(filter?.params ?? [])];
    let wanted = Number(limit);
    if (weight || (sql.dialect === 'mysql' && filter)) {
      // InnoDB locks the row at which a locking scan ends: past a lane's last due row, the first row of the next lane,
      // which that lane's claim would then skip. Counted first (without locks), the scan stops on the lane's last row.
      const ahead = await sql.all<Record<string, number | string>>(`SELECT id${weight ? `, ${weight}` : ''} FROM ${this.table} WHERE ${due} LIMIT ${wanted}`, params);
      wanted = weight ? rowsHolding(ahead, weight, wanted) : ahead.length;
      if (wanted === 0) return [];
    }
    const skipLocked = sql.dialect === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '';
    const rows = await sql.all<Row>(`${this.select} WHERE ${due} LIMIT ${wanted}${skipLocked}`, params);
    if (rows.length === 0) return rows;
    const ids = rows.map((row) => row.id);
    // the rows are locked (MySQL) or the writer is this unit (SQLite): the lease travels with the commit
    await sql.later(
      `UPDATE ${this.table} SET available_at = ?, claimed_by = ?, attempts = attempts + 1 WHERE id IN (${placeholders(ids)})`,
      [lease.until(now), lease.owner, ...ids],
    );
    return rows;
  }

  /** Extends the lease on the rows `lease.owner` still holds; returns how many it holds. */
  renew(sql: Sql, ids: ReadonlyArray<number | string>, lease: Lease, now: Date): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return sql.run(`UPDATE ${this.table} SET available_at = ? WHERE claimed_by = ? AND id IN (${placeholders(ids)})`, [
      lease.until(now),
      lease.owner,
      ...ids,
    ]);
  }

  /**
   * In a unit of work that does part of a job: extends the claim, and throws
   * LeaseLost (rolling the unit back) when another instance has taken the job
   * over. The row stays locked until the unit commits, so the work and the
   * claim it was done under commit together.
   */
  async hold(sql: Sql, queue: string, id: number | string, lease: Lease, now: Date): Promise<void> {
    if ((await this.renew(sql, [id], lease, now)) !== 1) throw new LeaseLost(queue, id);
  }

  /** Gives the unfinished rows among `ids` that `owner` holds back to every instance, due at `at`; a finished row has no `available_at`. */
  release(sql: Sql, ids: ReadonlyArray<number | string>, owner: string, at: Date): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    const held = `claimed_by = ? AND available_at IS NOT NULL AND id IN (${placeholders(ids)})`;
    return sql.run(`UPDATE ${this.table} SET available_at = ?, claimed_by = NULL WHERE ${held}`, [
      at,
      owner,
      ...ids,
    ]);
  }
}

/** How many of `rows`, in order, it takes to hold `limit` of `weight` (all of them when they hold less). */
function rowsHolding(rows: ReadonlyArray<Record<string, number | string>>, weight: string, limit: number): number {
  let held = 0;
  let count = 0;
  while (count < rows.length && held < limit) held += Number(rows[count++]![weight]);
  return count;
}
