// List paging on a large address book: contacts and group members written with bulk SQL, then the first page
// and the 5,000th page of each list measured with the same load (keyset paging costs the same on both).
import { v7 as uuidv7 } from 'uuid';
import { bulkWriter } from './fill.mjs';
import { pagingComparison } from './paging.mjs';

const BATCH = 2000;
const PAGE = 20;

/** `contacts` contacts for `accountId`, the first `members` of them in one new group; returns the group's id. */
export async function fillAddressBook(env, accountId, contacts, members) {
  const db = await bulkWriter(env, { analyze: ['contact', 'contact_group_member'] });
  const groupId = uuidv7();
  const now = Date.now();
  const time = db.time(new Date(now));
  await db.insert([[GROUP, [[groupId, accountId, 'Bench', 'bench', members, time, time]]]]);
  for (let start = 0; start < contacts; start += BATCH) {
    const [contactRows, memberRows] = [[], []];
    for (let i = start; i < Math.min(contacts, start + BATCH); i++) {
      const at = db.time(new Date(now - (contacts - i) * 10));
      const id = uuidv7({ msecs: now - (contacts - i) * 10 });
      const name = `Contact ${i}`;
      contactRows.push([id, accountId, name, `+22501${String(10_000_000 + i).padStart(8, '0')}`, 'CI', 'fr', name.toLowerCase(), at, at]);
      if (i < members) memberRows.push([groupId, id, at]);
    }
    await db.insert([[CONTACT, contactRows], [MEMBER, memberRows]]);
  }
  await db.settle();
  await db.close();
  return groupId;
}

/** The first and the 5,000th page of the contacts and of the group's members, 20 a page. */
export async function addressBookPaging(url, auth, groupId, { connections, duration }) {
  return pagingComparison(url, auth, { contacts: '/v1/contact', members: `/v1/group/${groupId}/contacts` }, { connections, duration, limit: PAGE });
}

export const CONTACT = 'INSERT INTO contact (id, account_id, name, phone, country, language, search_name, created_at, updated_at)';
const MEMBER = 'INSERT INTO contact_group_member (group_id, contact_id, created_at)';
const GROUP = 'INSERT INTO contact_group (id, account_id, name, name_key, contact_count, created_at, updated_at)';

