import type { TestApp } from './test-app.js';

/** The tables of the database under test, by name. */
export async function tableNames(t: TestApp): Promise<string[]> {
  const query =
    t.database.dialect === 'mysql'
      ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name'
      : "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
  const rows = await t.database.run((sql) => sql.all<{ name?: string; NAME?: string }>(query));
  return rows.map((row) => String(row.name ?? row.NAME));
}

/** The number of rows of every table, by name: what a refused request must leave as it was. */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await tableNames(t);
  const counts = await t.database.run((sql) => Promise.all(tables.map((table) => sql.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM \`${table}\``))));
  return Object.fromEntries(tables.map((table, index) => [table, Number(counts[index]?.n)]));
}
