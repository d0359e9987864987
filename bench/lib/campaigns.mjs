// Campaign launch and materialisation: a group of N contacts written with bulk SQL, a campaign to it launched through
// the API (timed to the answer), then the worker's chunks timed until every recipient has its message; in turn with the
// floor: the same rows (each message, the outbox's chunks of them, the campaign's position per 500) written by the bench itself
// as plain multi-row statements of 500 rows per transaction, with the service's connection settings.
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { fillAddressBook } from './address-book.mjs';
import { mysqlConnection, sqliteConnection } from './fill.mjs';
import { apiCaller, outboxDrained } from './load.mjs';
import { median } from './report.mjs';

const CHUNK = 500;
/** The alone floor's outbox entries are due this much later, so that the dispatcher leaves them to be deleted. */
const LATER_MS = 86_400_000;
/** The validity an outbox payload carries when the send names none (DEFAULT_VALIDITY_MINUTES). */
const VALIDITY_MINUTES = 2880;

/**
 * Writes a group of `count` contacts for the account, then `rounds` times in turn: launches a new campaign to the group
 * (time to the answer), times the worker from that answer to the commit of the campaign's last chunk (its position
 * read from the database every 5 ms), then writes the same rows twice as the floor. The worker shares the CPUs with the
 * dispatcher handing its messages over (the log provider), as in production. The floor is timed alone (its outbox
 * entries due a day later, deleted once it is timed) and beside the same hand-over (its entries due at once, handed over
 * by the service as they come, as the worker's are); on SQLite the latter also waits for the service's writes in turn
 * with its own, across processes (busy waits), which slows it more than the hand-over's work. Each phase starts once the
 * outbox is drained. Medians of the rounds.
 */
export async function campaignThroughput(url, env, account, { count, rounds, metricsToken }) {
  const groupId = await fillAddressBook(env, account.accountId, count, count);
  const db = env.DB_TYPE === 'mysql' ? await mysqlDatabase(env) : await sqliteDatabase(env);
  const call = apiCaller(url, account.auth);
  const launches = [];
  const materialisations = [];
  const floors = [];
  const floorsBeside = [];
  try {
    for (let round = 0; round < rounds; round++) {
      await outboxDrained(url, metricsToken, 600_000);
      const campaign = await call('POST', '/v1/campaign', { name: `Bench ${round}`, message: 'Bonjour ##NAME##, nos soldes commencent demain.', group_ids: [groupId] });
      const requested = Date.now();
      const launched = await call('POST', `/v1/campaign/${campaign.id}/launch`, {});
      const accepted = Date.now();
      if (launched.counts.recipients !== count) throw new Error(`the campaign has ${launched.counts.recipients} recipients, not ${count}`);
      for (const deadline = accepted + 600_000; (await db.position(campaign.id)) < count; await new Promise((resolve) => setTimeout(resolve, 5))) {
        if (Date.now() > deadline) throw new Error('the campaign was not materialised within 10 minutes');
      }
      const materialised = Date.now();
      const messages = await db.messages(account.accountId, campaign.id);
      if (messages !== count) throw new Error(`the campaign has ${messages} messages, not ${count}`);
      launches.push((accepted - requested) / 1000);
      materialisations.push((materialised - accepted) / 1000);

      for (const [times, dueInMs] of [[floors, LATER_MS], [floorsBeside, 0]]) {
        await outboxDrained(url, metricsToken, 600_000);
        const target = await call('POST', '/v1/campaign', { name: `Bench floor ${round}`, message: 'Bonjour', group_ids: [groupId] });
        times.push(await db.floorSeconds(await db.sameRows(campaign.id, target.id, account.sender, dueInMs)));
        if (dueInMs > 0) await db.forgetFloor(account.accountId);
      }
      console.log(
        `campaign: ${count} recipients accepted in ${launches.at(-1)} s, materialised in ${materialisations.at(-1)} s; ` +
          `the same rows written plainly in ${floors.at(-1).toFixed(2)} s, ${floorsBeside.at(-1).toFixed(2)} s beside their hand-over`,
      );
    }
  } finally {
    await db.close();
  }
  const seconds = median(materialisations);
  const floorSeconds = median(floors);
  const besideSeconds = median(floorsBeside);
  return {
    recipients: count,
    rounds,
    launch_seconds: Number(median(launches).toFixed(2)),
    launches,
    seconds: Number(seconds.toFixed(2)),
    materialisations,
    per_second: Math.round(count / seconds),
    floor_seconds: Number(floorSeconds.toFixed(2)),
    floors: floors.map((floor) => Number(floor.toFixed(2))),
    floor_per_second: Math.round(count / floorSeconds),
    ratio: Number((floorSeconds / seconds).toFixed(2)),
    beside_hand_over: {
      floor_seconds: Number(besideSeconds.toFixed(2)),
      floors: floorsBeside.map((floor) => Number(floor.toFixed(2))),
      floor_per_second: Math.round(count / besideSeconds),
      ratio: Number((besideSeconds / seconds).toFixed(2)),
    },
  };
}

export const MESSAGE_COLUMNS = [
  'uniq_id', 'account_id', 'external_id', 'message_price_id', 'type', 'lot', 'sender_id', 'recipient', 'country', 'message', 'page', 'message_encoding',
  'amount', 'send_at', 'status', 'source', 'contact_id', 'campaign_id', 'webhook_url', 'dlr_number_retry', 'created_by', 'retrieve', 'local_number',
  'language', 'is_test', 'created_at',
];
/** An outbox entry of the bulk lane: a chunk of up to CHUNK_MESSAGES messages of one lot (the service's toChunkRow). */
export const CHUNK_COLUMNS = ['kind', 'record_id', 'account_id', 'amount', 'payload', 'is_test', 'deliver_before', 'attempts', 'scheduled', 'bulk', 'messages', 'available_at', 'created_at'];
export const CHUNK_MESSAGES = 100;

/** The parameters of the chunk rows of `messages` (`{ recordId, amount, payload }`, in order), and how many rows they make. */
export function chunkRows(accountId, messages, { scheduled, due }) {
  const params = [];
  for (let start = 0; start < messages.length; start += CHUNK_MESSAGES) {
    const chunk = messages.slice(start, start + CHUNK_MESSAGES);
    const amount = chunk.reduce((sum, message) => sum + message.amount, 0);
    params.push('sms', chunk[0].recordId, accountId, amount, JSON.stringify({ messages: chunk }), 0, null, 0, scheduled ? 1 : 0, 1, chunk.length, due, due);
  }
  return { rows: Math.ceil(messages.length / CHUNK_MESSAGES), params };
}
const RECIPIENTS = 'SELECT contact_id, phone, country, message_price_id, message, segments, encoding, amount FROM campaign_recipient WHERE campaign_id = ? ORDER BY n';
const FORGET_FLOOR = 'DELETE FROM outbox WHERE account_id = ? AND created_at > ?';
const ADVANCE = "UPDATE campaign SET position = ?, available_at = ?, claimed_by = NULL WHERE id = ? AND position = ? AND status = 'draft'";
const tuple = (columns) => `(${columns.map(() => '?').join(', ')})`;
export const insert = (table, columns, rows) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows).fill(tuple(columns)).join(', ')}`;

/**
 * The rows the worker wrote for `campaignId`'s recipients, for the draft `targetId` (which no worker claims), in chunks
 * of 500: each chunk's message and outbox parameters (the entries due in `dueInMs`), and its position update.
 */
function chunksOf(recipients, campaign, targetId, senderName, dueInMs, time) {
  const lot = ulid();
  const at = time(new Date());
  const due = time(new Date(Date.now() + dueInMs));
  const chunks = [];
  for (let start = 0; start < recipients.length; start += CHUNK) {
    const rows = recipients.slice(start, start + CHUNK);
    const messages = [];
    const queued = [];
    for (const recipient of rows) {
      const uniqId = uuidv7();
      const amount = Number(recipient.amount);
      messages.push(uniqId, campaign.account_id, null, recipient.message_price_id, 'sms', lot, campaign.sender_id, recipient.phone, recipient.country);
      messages.push(recipient.message, recipient.segments, recipient.encoding, amount, at, 'pending', 'campaign', recipient.contact_id, targetId, null);
      messages.push(0, campaign.created_by, 0, null, null, 0, at);
      const payload = { from: senderName, to: recipient.phone, text: recipient.message, secrets: [], validityMinutes: VALIDITY_MINUTES };
      queued.push({ recordId: uniqId, amount, payload });
    }
    const outbox = chunkRows(campaign.account_id, queued, { scheduled: false, due });
    chunks.push({ rows: rows.length, messages, outbox, advance: [start + rows.length, at, targetId, start] });
  }
  return chunks;
}

async function sqliteDatabase(env) {
  const db = await sqliteConnection(env);
  const time = (date) => date.toISOString().slice(0, 23).replace('T', ' ');
  const position = db.prepare('SELECT position FROM campaign WHERE id = ?').pluck();
  const statements = new Map();
  const statement = (table, columns, rows) => {
    const key = `${table} ${rows}`;
    if (!statements.has(key)) statements.set(key, db.prepare(insert(table, columns, rows)));
    return statements.get(key);
  };
  const advance = db.prepare(ADVANCE);
  const write = db.transaction((chunk) => {
    statement('message_out', MESSAGE_COLUMNS, chunk.rows).run(chunk.messages);
    statement('outbox', CHUNK_COLUMNS, chunk.outbox.rows).run(chunk.outbox.params);
    if (advance.run(chunk.advance).changes !== 1) throw new Error('the floor lost its campaign');
  });
  return {
    position: async (id) => position.get(id),
    messages: async (accountId, id) => db.prepare('SELECT COUNT(*) FROM message_out WHERE account_id = ? AND campaign_id = ?').pluck().get(accountId, id),
    sameRows: async (campaignId, targetId, senderName, dueInMs) => {
      const campaign = db.prepare('SELECT account_id, sender_id, created_by FROM campaign WHERE id = ?').get(campaignId);
      return chunksOf(db.prepare(RECIPIENTS).all(campaignId), campaign, targetId, senderName, dueInMs, time);
    },
    floorSeconds: async (chunks) => {
      const started = performance.now();
      for (const chunk of chunks) write(chunk);
      return (performance.now() - started) / 1000;
    },
    forgetFloor: async (accountId) => db.prepare(FORGET_FLOOR).run(accountId, time(new Date())),
    close: async () => db.close(),
  };
}

async function mysqlDatabase(env) {
  const connection = await mysqlConnection(env);
  const value = async (text, params) => Object.values((await connection.query(text, params))[0][0] ?? {})[0];
  return {
    position: async (id) => Number(await value('SELECT position FROM campaign WHERE id = ?', [id])),
    messages: async (accountId, id) => Number(await value('SELECT COUNT(*) FROM message_out WHERE account_id = ? AND campaign_id = ?', [accountId, id])),
    sameRows: async (campaignId, targetId, senderName, dueInMs) => {
      const [[campaign]] = await connection.query('SELECT account_id, sender_id, created_by FROM campaign WHERE id = ?', [campaignId]);
      const [recipients] = await connection.query(RECIPIENTS, [campaignId]);
      return chunksOf(recipients, campaign, targetId, senderName, dueInMs, (date) => date);
    },
    floorSeconds: async (chunks) => {
      const started = performance.now();
      for (const chunk of chunks) {
        await connection.beginTransaction();
        await connection.query(insert('message_out', MESSAGE_COLUMNS, chunk.rows), chunk.messages);
        await connection.query(insert('outbox', CHUNK_COLUMNS, chunk.outbox.rows), chunk.outbox.params);
        const [{ affectedRows }] = await connection.query(ADVANCE, chunk.advance);
        if (affectedRows !== 1) throw new Error('the floor lost its campaign');
        await connection.commit();
      }
      return (performance.now() - started) / 1000;
    },
    forgetFloor: async (accountId) => connection.query(FORGET_FLOOR, [accountId, new Date()]),
    close: async () => connection.end(),
  };
}
