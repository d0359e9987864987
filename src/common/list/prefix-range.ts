/**
 * Above every character a column can hold: every text starting with `prefix`
 * sorts below `prefix + bound`. An ASCII column (ids, phones, codes) cannot
 * be compared with text outside ASCII on MySQL, so it gets the last ASCII character.
 */
const BOUNDS = { unicode: '\u{10FFFF}', ascii: '\u{7F}' } as const;

/**
 * A prefix match as a range of an indexed column (`LIKE 'q%'` without its
 * collation pitfalls), which SQLite and MySQL both serve from the index.
 */
export const prefixRange = (column: string, prefix: string, charset: keyof typeof BOUNDS = 'unicode'): { condition: string; params: string[] } => ({
  condition: `(${column} >= ? AND ${column} < ?)`,
  params: [prefix, prefix + BOUNDS[charset]],
});
