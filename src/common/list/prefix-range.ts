/** The largest character: every text starting with `prefix` sorts below `prefix + MAX_CHAR`. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * A prefix match as a range of an indexed column (`LIKE 'q%'` without its
 * collation pitfalls), which SQLite and MySQL both serve from the index.
 */
export const prefixRange = (column: string, prefix: string): { condition: string; params: string[] } => ({
  condition: `(${column} >= ? AND ${column} < ?)`,
  params: [prefix, prefix + MAX_CHAR],
});
