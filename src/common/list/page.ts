import type { Param } from '../sql-param.js';
import { ApiError } from '../errors/api-error.js';
import { uuidV7Floor } from '../ids.js';
import { decodeCursor, encodeCursor, filtersHash } from './cursor.js';
import { DEFAULT_LIMIT, type ListQueryDto } from './list-query.dto.js';

/** `data` of every list answer. */
export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Where some of a page's keys are read in key order: a table with the index that serves it, and the conditions that index answers. */
export interface KeySource {
  from: string;
  conditions: string[];
  params: Param[];
}

/** What a list is keyed by: a UUID v7 (time-ordered) or an auto-increment integer. */
export type ListKey = 'uuid' | 'integer';

const KEY_SHAPES: Record<ListKey, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  integer: /^\d{1,19}$/,
};

export const INVALID_CURSOR = 'cursor: curseur invalide';

/**
 * One page of a list, newest first by its key (SPEC-2 §0): `limit` items after
 * the cursor's key, read with a keyset query (`… AND key < ? ORDER BY key DESC
 * LIMIT n+1`), which costs the same on the first page and the five-thousandth
 * and neither repeats nor skips a row while rows are inserted. The cursor is
 * bound to the filters it was made with.
 */
export class Page {
  private constructor(
    readonly limit: number,
    /** The last key of the previous page; null on the first page. */
    readonly after: string | null,
    private readonly key: ListKey,
    private readonly filters: string,
  ) {}

  /** The page a list query asks for; `filters` are the list's filters, normalised. 400 for a cursor that does not fit them. */
  static of(query: ListQueryDto, filters: Record<string, unknown>, key: ListKey = 'uuid'): Page {
    const hashed = filtersHash(filters);
    const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
    if (query.cursor === undefined) return new Page(limit, null, key, hashed);
    const after = decodeCursor(query.cursor, hashed, KEY_SHAPES[key]);
    if (after === null) throw ApiError.validation([INVALID_CURSOR]);
    return new Page(limit, after, key, hashed);
  }

  /**
   * The keyset query: `select`, the list's `conditions` (ANDed), then the key
   * past the cursor, newest first, one row more than the page to know whether
   * more follow. The conditions and the key should be served by one index
   * whose last column is the key.
   */
  query(select: string, keyColumn: string, conditions: string[], params: readonly Param[]): [string, Param[]] {
    const where = this.after === null ? conditions : [...conditions, `${keyColumn} < ?`];
    const text = `${select}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${keyColumn} DESC LIMIT ${this.limit + 1}`;
    return [text, this.after === null ? [...params] : [...params, this.key === 'integer' ? Number(this.after) : this.after]];
  }

  /**
   * The query of the page's keys (`page_key`), newest first: each source read
   * in key order past the cursor, and their pages merged, so that a filter
   * with alternatives (one of several statuses, say) is served by an index
   * per alternative instead of a sort of every match. The sources must not
   * share rows.
   */
  keys(keyColumn: string, sources: readonly KeySource[]): [string, Param[]] {
    const arms = sources.map((source) => this.query(`SELECT ${keyColumn} AS page_key FROM ${source.from}`, keyColumn, source.conditions, source.params));
    if (arms.length === 1) return arms[0]!;
    const merged = arms.map(([text], n) => `SELECT page_key FROM (${text}) source_${n}`).join(' UNION ALL ');
    return [`${merged} ORDER BY page_key DESC LIMIT ${this.limit + 1}`, arms.flatMap(([, params]) => params)];
  }

  /** The answer from the rows the keyset query read. */
  answer<Row, Item>(rows: Row[], keyOf: (row: Row) => string | number, toItem: (row: Row) => Item): ListPage<Item> {
    const hasMore = rows.length > this.limit;
    const shown = hasMore ? rows.slice(0, this.limit) : rows;
    return {
      items: shown.map(toItem),
      next_cursor: hasMore ? encodeCursor(String(keyOf(shown.at(-1)!)), this.filters) : null,
      has_more: hasMore,
    };
  }
}

/**
 * A creation-time range as a range of UUID v7 keys, which sort by creation
 * time: the list's own key index serves the date filter.
 */
export function createdRange(keyColumn: string, from: Date | undefined, to: Date | undefined): { conditions: string[]; params: string[] } {
  const conditions: string[] = [];
  const params: string[] = [];
  if (from) {
    conditions.push(`${keyColumn} >= ?`);
    params.push(uuidV7Floor(from));
  }
  if (to) {
    conditions.push(`${keyColumn} < ?`);
    params.push(uuidV7Floor(to));
  }
  return { conditions, params };
}
