// Plain functions without imports: bench/lib/message-year.mjs imports this file too (Node strips its types).

/** A row of MariaDB's EXPLAIN, as far as telling a scan goes. */
export interface MysqlPlanStep {
  table: string | null;
  type: string | null;
  key: string | null;
}

/**
 * The steps of SQLite's EXPLAIN QUERY PLAN that read a whole table or a whole
 * index (`SCAN …`) instead of seeking in an index; the rows of a subquery in
 * FROM (a page of keys, found through an index) are read whole by design and
 * not counted, nor is the one row of a SELECT without FROM (`SCAN CONSTANT ROW`).
 */
export function sqliteScans(details: string[]): string[] {
  const subqueries = new Set(details.map((detail) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(detail)?.[1]).filter(Boolean));
  return details.filter((detail) => detail.startsWith('SCAN ') && detail !== 'SCAN CONSTANT ROW' && !subqueries.has(detail.slice(5).split(' ')[0]));
}

/**
 * The accesses of MariaDB's EXPLAIN that read a whole table or a whole index:
 * the `ALL` and `index` access types, or an access without a key.
 */
export function mysqlScans(plan: MysqlPlanStep[]): string[] {
  // a row without a table is a note, such as "Impossible WHERE noticed after reading const tables";
  // a derived table or a union's result holds the rows its own steps found;
  // a `const` access without a key is an outer join whose condition no row can meet (a NULL key), which reads nothing
  return plan
    .filter((step) => step.table !== null && !/^<(derived|union)/.test(step.table))
    .filter((step) => step.type === 'ALL' || step.type === 'index' || (step.key === null && step.type !== 'const'))
    .map((step) => `${step.table}: ${step.type}, key ${step.key}`);
}
