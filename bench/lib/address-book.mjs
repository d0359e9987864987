// List paging on a large address book: contacts and group members written with bulk SQL, then the first page
// and the 5,000th page of each list measured with the same load (keyset paging costs the same on both).
import { v7 as uuidv7 } from 'uuid';
import { mysqlConnection } from './fill.mjs';
import { measure } from './load.mjs';

const BATCH = 2000;
const PAGE = 20;
const DEEP_PAGE = 5000;

/** `contacts` contacts for `accountId`, the first `members` of them in one new group; returns the group's id. */
export async function fillAddressBook(env, accountId, contacts, members) {
  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env) : await sqliteWriter(env);
  const groupId = uuidv7();
  const now = Date.now();
  await db.group({ id: groupId, accountId, at: new Date(now), members });
  for (let start = 0; start < contacts; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(contacts, start + BATCH); i++) {
      const at = new Date(now - (contacts - i) * 10);
      rows.push({ id: uuidv7({ msecs: at.getTime() }), phone: `+22501${String(10_000_000 + i).padStart(8, '0')}`, name: `Contact ${i}`, at, member: i < members });
    }
    await db.insert(rows, accountId, groupId);
  }
  await db.settle();
  await db.close();
  return groupId;
}

/**
 * For each list, walks to its 5,000th page with the cursor, then measures the first page and that page alike:
 * req/s, p50 and p99 of each, and their ratio.
 */
export async function pagingComparison(url, auth, groupId, { connections, duration }) {
  const lists = { contacts: '/v1/contact', members: `/v1/group/${groupId}/contacts` };
  const result = {};
  for (const [name, path] of Object.entries(lists)) {
    const deep = await cursorOfPage(url, auth, path, DEEP_PAGE);
    const request = (cursor) => ({ method: 'GET', path: `${path}?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, headers: { authorization: auth } });
    await measure(url, [request()], { connections, duration: 2 });
    const first = await measure(url, [request()], { connections, duration });
    const far = await measure(url, [request(deep)], { connections, duration });
    result[name] = { first, [`page_${DEEP_PAGE}`]: far, ratio: Number((far.rps / first.rps).toFixed(2)) };
    console.log(
      `${name.padEnd(9)} page 1: ${first.rps} req/s p99 ${first.p99} ms; page ${DEEP_PAGE}: ${far.rps} req/s p99 ${far.p99} ms; ratio ${result[name].ratio}`,
    );
  }
  return result;
}

/** The cursor that reads page `page` of a list, found by walking it as a client would. */
async function cursorOfPage(url, auth, path, page) {
  let cursor = null;
  for (let n = 1; n < page; n++) {
    const response = await fetch(`${url}${path}?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: auth } });
    const body = await response.json();
    if (!body.data?.next_cursor) throw new Error(`${path} has fewer than ${page} pages`);
    cursor = body.data.next_cursor;
  }
  return cursor;
}

const CONTACT = 'INSERT INTO contact (id, account_id, name, phone, country, language, search_name, created_at, updated_at)';
const MEMBER = 'INSERT INTO contact_group_member (group_id, contact_id, created_at)';
const GROUP = 'INSERT INTO contact_group (id, account_id, name, name_key, contact_count, created_at, updated_at)';

async function sqliteWriter(env) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(env.DB_PATH);
  db.pragma('busy_timeout = 10000');
  const time = (date) => date.toISOString().slice(0, 23).replace('T', ' ');
  const contact = db.prepare(`${CONTACT} VALUES (?, ?, ?, ?, 'CI', 'fr', ?, ?, ?)`);
  const member = db.prepare(`${MEMBER} VALUES (?, ?, ?)`);
  const insert = db.transaction((rows, accountId, groupId) => {
    for (const row of rows) {
      contact.run(row.id, accountId, row.name, row.phone, row.name.toLowerCase(), time(row.at), time(row.at));
      if (row.member) member.run(groupId, row.id, time(row.at));
    }
  });
  return {
    group: async ({ id, accountId, at, members }) => db.prepare(`${GROUP} VALUES (?, ?, 'Bench', 'bench', ?, ?, ?)`).run(id, accountId, members, time(at), time(at)),
    insert: async (rows, accountId, groupId) => insert(rows, accountId, groupId),
    settle: async () => db.pragma('wal_checkpoint(TRUNCATE)'),
    close: async () => db.close(),
  };
}

async function mysqlWriter(env) {
  const connection = await mysqlConnection(env);
  return {
    group: async ({ id, accountId, at, members }) => connection.query(`${GROUP} VALUES (?, ?, 'Bench', 'bench', ?, ?, ?)`, [id, accountId, members, at, at]),
    insert: async (rows, accountId, groupId) => {
      await connection.beginTransaction();
      await connection.query(
        `${CONTACT} VALUES ${rows.map(() => "(?, ?, ?, ?, 'CI', 'fr', ?, ?, ?)").join(', ')}`,
        rows.flatMap((row) => [row.id, accountId, row.name, row.phone, row.name.toLowerCase(), row.at, row.at]),
      );
      const members = rows.filter((row) => row.member);
      if (members.length > 0) {
        await connection.query(`${MEMBER} VALUES ${members.map(() => '(?, ?, ?)').join(', ')}`, members.flatMap((row) => [groupId, row.id, row.at]));
      }
      await connection.commit();
    },
    settle: async () => connection.query('ANALYZE TABLE contact, contact_group_member'),
    close: async () => connection.end(),
  };
}
