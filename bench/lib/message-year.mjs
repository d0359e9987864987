// A year of 1,000,000 messages for one account, written with bulk SQL: GET /v1/sms/out paged deep under each filter
// that can lead its query, and GET /v1/metrics over the whole year, its plan first.
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { CONTACT } from './address-book.mjs';
import { bulkWriter, mysqlConnection, sqliteConnection } from './fill.mjs';
import { measure, recipientNumber } from './load.mjs';
import { pagingComparison } from './paging.mjs';

const BATCH = 2000;
const DAY_MS = 86_400_000;
const SPAN_DAYS = 360;
const OTHER_STATUSES = ['sent', 'undelivered', 'failed'];
const MESSAGE =
  'INSERT INTO message_out (uniq_id, account_id, type, lot, recipient, message, page, message_encoding, amount, send_at, done_at, status, source, dlr_number_retry, ' +
  'created_by, retrieve, is_test, created_at, external_id, sender_id, contact_id, campaign_id, country)';

/**
 * `count` messages over the last 360 days, oldest first. Three in five share every value a filter can lead with (status
 * delivered, one lot, one number, one campaign, one external_id, the account's sender, type sms), so that each filter
 * matches 600,000 of 1,000,000: more than 5,000 pages of 100. Of those, one in three names the number's contact and
 * the others name none, so that the contact's filter reads both of its index ranges. The rest are OTPs to other
 * numbers, in lots of 1,000, in the other statuses.
 */
export async function fillMessageYear(env, account, count) {
  const db = await bulkWriter(env, { analyze: ['message_out', 'contact'] });
  const now = Date.now();
  const first = now - SPAN_DAYS * DAY_MS - 3_600_000;
  const shared = { lot: `bench-${ulid()}`, phone: recipientNumber(7), campaignId: uuidv7(), contactId: uuidv7(), externalId: 'commande-bench' };
  const at = db.time(new Date(now));
  await db.insert([[CONTACT, [[shared.contactId, account.account_id, 'Client fidèle', shared.phone, 'CI', 'fr', 'client fidèle', at, at]]]]);
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    let otherLot = ulid();
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const msecs = first + Math.floor((i / count) * SPAN_DAYS * DAY_MS);
      const created = db.time(new Date(msecs));
      const done = db.time(new Date(msecs + 5000));
      const pages = i % 7 === 0 ? 2 : 1;
      if (i % 1000 === 0) otherLot = ulid(msecs);
      const common = [uuidv7({ msecs }), account.account_id];
      const tail = [pages, 'GSM7', 250 * pages, created, done];
      if (i % 5 < 3) {
        const text = 'Votre commande est prête. Merci de votre confiance.';
        rows.push([
          ...common,
          'sms',
          shared.lot,
          shared.phone,
          text,
          ...tail,
          'delivered',
          'api',
          0,
          account.user_id,
          0,
          0,
          created,
          shared.externalId,
          account.sender_id,
          i % 5 === 0 ? shared.contactId : null,
          shared.campaignId,
          'CI',
        ]);
      } else {
        rows.push([
          ...common,
          'otp',
          otherLot,
          recipientNumber(1_000_000 + i),
          'Votre code est ******',
          ...tail,
          OTHER_STATUSES[i % 3],
          'api',
          0,
          account.user_id,
          0,
          0,
          created,
          null,
          null,
          null,
          null,
          'CI',
        ]);
      }
    }
    await db.insert([[MESSAGE, rows]]);
  }
  await db.settle();
  await db.close();
  return { ...shared, from: new Date(first - DAY_MS), to: new Date(now) };
}

/** GET /v1/sms/out unfiltered and led by each filter that can lead it, over the year: page 1 against page 5,000, 100 a page. */
export async function smsOutPaging(url, auth, year, senderId, { connections, duration }) {
  const over = (filters) => `/v1/sms/out?${new URLSearchParams({ created_from: year.from.toISOString(), ...filters })}`;
  const lists = {
    all: over({}),
    status: over({ status: 'delivered' }),
    lot: over({ lot: year.lot }),
    to: over({ to: year.phone }),
    'date range': over({
      created_from: new Date(year.to.getTime() - 300 * DAY_MS).toISOString(),
      created_to: new Date(year.to.getTime() - 30 * DAY_MS).toISOString(),
    }),
    campaign: over({ campaign_id: year.campaignId }),
    contact: over({ contact_id: year.contactId }),
    sender: over({ sender_id: senderId }),
  };
  return pagingComparison(url, auth, lists, { connections, duration, limit: 100 });
}

const metricsRange = (year) => ({ from: new Date(year.to.getTime() - 365 * DAY_MS), to: year.to });

/**
 * The plans of GET /v1/metrics's count (the repository's own statement) on the filled table, over the year that
 * metricsLoad asks for: unfiltered (by month, week or day alike) and for one campaign. Each is printed, and one that
 * reads a whole table or index, by the test suite's query-plan check, throws.
 */
export async function metricsPlans(env, account, year) {
  // built by then: bench/run.mjs builds before it starts
  const { slotCountStatement } = await import('../../dist/usage/usage.repository.js');
  // the query-plan specs' own check, TypeScript that Node runs as it is from 22.18
  const { mysqlScans, sqliteScans } = await import('../../test/support/plan-scans.ts');
  const { bindParam } = await import('../../dist/database/sql.js');
  const dialect = env.DB_TYPE === 'mysql' ? 'mysql' : 'sqlite';
  const plan = dialect === 'mysql' ? await mysqlPlans(env, mysqlScans) : await sqlitePlans(env, sqliteScans);
  const filters = { accountId: account.account_id, sandbox: false, ...metricsRange(year) };
  const plans = {};
  try {
    for (const [name, extra] of Object.entries({ year: {}, campaign: { campaignId: year.campaignId } })) {
      const { query, params } = slotCountStatement(dialect, { ...filters, ...extra }, 60);
      const bound = params.map((param) => bindParam(dialect, param));
      const { steps, scans } = await plan.of(query, bound);
      plans[name] = steps;
      console.log(`metrics plan, ${name}:\n  ${steps.join('\n  ')}`);
      if (scans.length > 0) throw new Error(`GET /v1/metrics (${name}) reads a whole table or index: ${scans.join('; ')}\n${query}`);
    }
  } finally {
    await plan.close();
  }
  return plans;
}

/** A statement's plan on SQLite: its steps, as printed, and those that scan. */
async function sqlitePlans(env, sqliteScans) {
  const db = await sqliteConnection(env);
  return {
    of: async (query, params) => {
      const steps = db
        .prepare(`EXPLAIN QUERY PLAN ${query}`)
        .all(params)
        .map((step) => step.detail);
      return { steps, scans: sqliteScans(steps) };
    },
    close: async () => db.close(),
  };
}

/** A statement's plan on MariaDB: its steps, as printed, and those that scan. */
async function mysqlPlans(env, mysqlScans) {
  const connection = await mysqlConnection(env);
  return {
    of: async (query, params) => {
      const [rows] = await connection.query(`EXPLAIN ${query}`, params);
      const steps = rows.map((step) => `${step.table}: ${step.type}, key ${step.key}, rows ${step.rows}${step.Extra ? `, ${step.Extra}` : ''}`);
      return { steps, scans: mysqlScans(rows) };
    },
    close: async () => connection.end(),
  };
}

/** GET /v1/metrics over the whole year, by month, week and day, and by day for one campaign: req/s, p50 and p99. */
export async function metricsLoad(url, auth, year, { connections, duration }) {
  const { from, to } = metricsRange(year);
  const range = { created_from: from.toISOString(), created_to: to.toISOString() };
  const queries = {
    month: { granularity: 'month' },
    week: { granularity: 'week' },
    day: { granularity: 'day' },
    'day, campaign': { granularity: 'day', campaign_id: year.campaignId },
  };
  const result = {};
  for (const [name, query] of Object.entries(queries)) {
    const path = `/v1/metrics?${new URLSearchParams({ ...range, ...query })}`;
    const answer = await fetch(`${url}${path}`, { headers: { authorization: auth } });
    const body = await answer.json();
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(body)}`);
    const figures = await measure(url, [{ method: 'GET', path, headers: { authorization: auth } }], { connections, duration });
    result[name] = { path, messages: body.data.totals.messages, buckets: body.data.buckets.length, ...figures };
    console.log(
      `metrics by ${name.padEnd(13)} (${result[name].messages} messages, ${result[name].buckets} buckets): ${figures.rps} req/s p50 ${figures.p50} ms p99 ${figures.p99} ms`,
    );
  }
  return result;
}
