// The floor of the OTP send and of its verification: the same durable work as the service's POST /v1/otp/send (and the
// hand-over of its message to the log provider) and POST /v1/otp/verify, hand-written behind a bare node:http server
// that takes the same requests and gives the same answers, and does nothing else. Same tables and indexes (the
// service's migrated database), the same statements in the same units of work, committed the same way
// (./sqlite.mjs, ./mysql.mjs); the same caches of look-ups, rate-limit leases, code hash and sealed outbox payload.
// floor-statements.e2e-spec.ts holds its statements equal to the service's.
//
//   DB_TYPE=sqlite DB_PATH=… | DB_TYPE=mysql DB_HOST DB_PORT DB_USER DB_PASSWORD DB_NAME [DB_POOL_SIZE=10]
//   PORT HOST OTP_SECRET [RATE_LIMIT_PER_MINUTE=60000] [OTP_MAX_SENDS_PER_RECIPIENT=5] [OTP_SEND_WINDOW_SECONDS=900]
//   [OTP_MAX_ATTEMPTS=5] [OTP_MAX_FAILED_VERIFICATIONS=20] [OTP_FAILED_VERIFICATION_WINDOW_SECONDS=86400]
//   [OUTBOX_LEASE_SECONDS=60]
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomFillSync, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { monotonicFactory } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { openMysql } from './mysql.mjs';
import { openSqlite } from './sqlite.mjs';
import * as S from './statements.mjs';

const env = process.env;
const setting = (name, fallback) => Number(env[name] ?? fallback);
const RATE_LIMIT = setting('RATE_LIMIT_PER_MINUTE', 60_000);
const MAX_SENDS = setting('OTP_MAX_SENDS_PER_RECIPIENT', 5);
const SEND_WINDOW_MS = setting('OTP_SEND_WINDOW_SECONDS', 900) * 1000;
const MAX_ATTEMPTS = setting('OTP_MAX_ATTEMPTS', 5);
const MAX_FAILURES = setting('OTP_MAX_FAILED_VERIFICATIONS', 20);
const FAILURE_WINDOW_MS = setting('OTP_FAILED_VERIFICATION_WINDOW_SECONDS', 86_400) * 1000;
const LEASE_MS = setting('OUTBOX_LEASE_SECONDS', 60) * 1000;
const EXPIRY_MS = 300_000;
const LONGEST_LIFETIME_MS = 3_600_000;
const CACHE_MS = 5_000;
const PRICE_CACHE_MS = 60_000;
const BATCH = 50;
const OTP = '##OTP##';
const ABSENT_OTP_ID = '00000000-0000-7000-8000-000000000000';
const ABSENT_HASH = '0'.repeat(64);
/** The fraud guard's prefix of a number: the number without its last 4 digits. */
const PREFIX_CUT = 4;
/** How long the fraud guard remembers a block lifted by hand. */
const LIFT_MEMORY_MS = 3_600_000;

const db = env.DB_TYPE === 'mysql' ? await openMysql(env) : openSqlite(env.DB_PATH);
const time = db.time;
const readTime = (value) => (value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`));
const payloadKey = createSecretKey(Buffer.from(hkdfSync('sha256', env.OTP_SECRET, Buffer.alloc(0), 'outbox-payload', 32)));
const hashCode = (uniqId, code) => createHmac('sha256', env.OTP_SECRET).update(`${uniqId}:${code}`).digest('hex');

/** CSPRNG bytes drawn from a pool refilled 4 KB at a time, rather than one call into OpenSSL for each IV or lot character. */
const pool = Buffer.alloc(4096);
let pooled = pool.length;
function randomBytes(size) {
  if (pooled + size > pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  pooled += size;
  return Buffer.from(pool.subarray(pooled - size, pooled));
}
const newLot = monotonicFactory(() => randomBytes(1)[0] / 256);
const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** A look-up kept for `ttl` ms; `keep` says whether a value is kept (unknown keys and senders are not). */
function cached(ttl, keep = () => true) {
  const entries = new Map();
  return async (key, lookUp) => {
    const now = Date.now();
    const entry = entries.get(key);
    if (entry && entry.until > now) return entry.value;
    const value = await lookUp();
    if (keep(value)) entries.set(key, { value, until: now + ttl });
    return value;
  };
}
const apiKeys = cached(CACHE_MS, Boolean);
const senders = cached(CACHE_MS, (sender) => sender?.status === 'approved');
const prices = cached(PRICE_CACHE_MS);
const thresholds = cached(CACHE_MS);
const guardSettings = cached(CACHE_MS);

/**
 * The fraud guard's settings of the account, kept as the service keeps them (it reads them again when their version
 * changes); with the velocity signals off, as the floor's account has them, they cost the send nothing else.
 */
function fraudGuardSettings(accountId, test, now) {
  const sandbox = test ? 1 : 0;
  const liftedSince = time(new Date(now.getTime() - LIFT_MEMORY_MS));
  return guardSettings(`${accountId}|${sandbox}`, () =>
    db.run((sql) =>
      sql.allEach([S.FRAUD_POLICY, [accountId, sandbox]], [S.FRAUD_LISTS, [accountId, sandbox, time(now)]], [S.FRAUD_BLOCKS, [accountId, sandbox, liftedSince, liftedSince]]),
    ),
  );
}

// ---------------------------------------------------------------- the request's credential and its rate limit

async function principalOf(authorization) {
  const key = /^Bearer (mk_(?:live|test)_[A-Za-z0-9_-]{43})$/.exec(authorization ?? '')?.[1];
  if (!key) return null;
  const hash = createHash('sha256').update(key).digest('hex');
  return apiKeys(hash, async () => {
    const row = await db.run((sql) => sql.get(S.API_KEY, [hash]));
    return row && { keyId: row.id, userId: row.user_id, accountId: row.account_id, test: Number(row.is_test) === 1 };
  });
}

/** Hits leased in blocks from the window's stored count, as the service's RateLimitCounter does. */
const windows = new Map();
async function withinRateLimit(principal) {
  if (RATE_LIMIT === 0) return true;
  const start = Math.floor(Date.now() / 60_000) * 60_000;
  const bucket = `credential:key:${principal.keyId}`;
  const key = `${start}|${bucket}`;
  let window = windows.get(key);
  if (!window) {
    for (const [older, stale] of windows) if (stale.start < start) windows.delete(older);
    windows.set(key, (window = { start, stored: 0, leased: 0, exhausted: false, leasing: null }));
  }
  while (window.leased === 0 && !window.exhausted) {
    window.leasing ??= lease(window, bucket).finally(() => (window.leasing = null));
    await window.leasing;
  }
  if (window.leased === 0) return false;
  window.leased--;
  return true;
}

async function lease(window, bucket) {
  const size = Math.min(256, Math.max(1, Math.floor((RATE_LIMIT - window.stored) / 8)));
  const at = time(new Date(window.start));
  const stored = await db.transaction(async (sql) =>
    db.dialect === 'mysql'
      ? sql.insertId(S.RATE_LIMIT_LEASE('mysql'), [bucket, at, size, size])
      : Number((await sql.get(S.RATE_LIMIT_LEASE('sqlite'), [bucket, at, size])).hits),
  );
  window.stored = Math.max(window.stored, stored);
  window.leased = Math.max(0, Math.min(size, RATE_LIMIT - (stored - size)));
  window.exhausted = stored >= RATE_LIMIT;
}

// ---------------------------------------------------------------- recipients and texts

/** Calling codes of the numbering plan, each with its one country (null when several share it). */
const callingCodes = new Map();
for (const country of getCountries()) {
  const code = getCountryCallingCode(country);
  callingCodes.set(code, callingCodes.has(code) ? null : country);
}

function phoneOf(to) {
  if (typeof to !== 'string' || !/^\+[1-9]\d{6,14}$/.test(to)) return null;
  for (let digits = 1; digits <= 3; digits++) {
    const code = to.slice(1, 1 + digits);
    if (callingCodes.has(code)) return { e164: to, dialCode: `+${code}`, country: callingCodes.get(code) };
  }
  return null;
}

const GSM7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;
function segmentsOf(text) {
  const [single, part] = GSM7.test(text) ? [160, 153] : [70, 67];
  return { encoding: single === 160 ? 'GSM7' : 'UCS2', parts: text.length <= single ? 1 : Math.ceil(text.length / part) };
}

function seal(json) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', payloadKey, iv);
  const body = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function open(sealed) {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', payloadKey, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

// ---------------------------------------------------------------- POST /v1/otp/send

class Refusal extends Error {
  constructor(status, message, errors) {
    super(message);
    Object.assign(this, { status, errors });
  }
}
const invalid = (error) => new Refusal(400, 'erreur_de_validation', [error]);

async function send(principal, body) {
  const phone = body.channel === 'SMS' ? phoneOf(body.to) : null;
  if (!phone) throw invalid('to: destinataire invalide');
  if (typeof body.message !== 'string' || !body.message.includes(OTP)) throw invalid('message: doit contenir ##OTP##');
  const { accountId, userId, test } = principal;
  const now = new Date();
  const uniqId = uuidv7({ msecs: now.getTime(), random: randomBytes(16) });
  let code = '';
  for (let i = 0; i < 6; i++) code += String(randomInt(10));
  const expiresAt = new Date(now.getTime() + EXPIRY_MS);
  const text = body.message.split(OTP).join(code);
  await fraudGuardSettings(accountId, test, now);
  let amount = 0;
  try {
    await db.transaction(async (sql) => {
      const sender = await senders(accountId, () => sql.get(S.DEFAULT_SENDER, [accountId]));
      if (sender?.status !== 'approved') throw invalid('sender: expéditeur inconnu');
      const price = await prices(`SMS|${phone.dialCode}`, async () => (await sql.get(S.PRICE, ['SMS', phone.dialCode])) ?? (await sql.get(S.PRICE, ['SMS', '*'])) ?? null);
      if (!price) throw invalid('to: destination non prise en charge');
      const { encoding, parts } = segmentsOf(text);

      await sql.later(S.CLAIM_RECIPIENT_ROW(db.dialect), [accountId, phone.e164, uniqId, time(now), uniqId]);
      const since = new Date(now.getTime() - SEND_WINDOW_MS);
      const aliveSince = new Date(now.getTime() - LONGEST_LIFETIME_MS);
      const sent = await sql.get(S.RECENT_SENDS(db.dialect), [time(since), time(since), time(aliveSince), accountId, phone.e164, time(since < aliveSince ? since : aliveSince)]);
      if (Number(sent?.count ?? 0) >= MAX_SENDS) throw new Refusal(429, 'trop_de_requetes', ["to: trop d'envois vers ce destinataire"]);

      const lot = newLot();
      await sql.later(S.INSERT_OTP, [uniqId, accountId, phone.e164, 'SMS', hashCode(uniqId, code), 'pending', 0, time(expiresAt), null, 'fr', lot, userId, test ? 1 : 0, null, time(now), null, null, phone.country, phone.e164.slice(0, -PREFIX_CUT)]);
      if (Number(sent?.alive ?? 0) > 0) await sql.later(S.SUPERSEDE(db.dialect), [accountId, phone.e164, time(aliveSince), uniqId]);
      amount = test ? 0 : Number(price.amount) * parts;
      await sql.later(S.INSERT_MESSAGE, [
        uniqId, accountId, null, price.id, 'otp', lot, sender.id, phone.e164, phone.country, body.message.split(OTP).join('******'), parts, encoding,
        amount, time(now), 'pending', 'api', null, null, null, 0, userId, 0, null, 'fr', test ? 1 : 0, time(now),
      ]);
      const payload = seal(JSON.stringify({ from: sender.name, to: phone.e164, text, secrets: [code] }));
      await sql.later(S.INSERT_OUTBOX, ['sms', uniqId, accountId, amount, payload, test ? 1 : 0, time(expiresAt), 0, 0, 0, time(now), time(now)]);
      if (amount > 0) {
        await sql.later(S.DEBIT, [amount, accountId]);
        await sql.later(S.LEDGER_ROW, [accountId, -amount, 'debit', uniqId, 'otp', lot, userId, null, time(now), accountId]);
        const watched = await thresholds(accountId, async () => (await sql.get(S.LOW_BALANCE_THRESHOLD, [accountId]))?.threshold != null);
        if (watched) throw new Error('the floor does not send low-balance alerts: use an account without a threshold');
      }
    });
  } catch (error) {
    if (!String(error?.message).includes('CHK_account_balance')) throw error;
    throw new Refusal(402, 'solde_insuffisant');
  }
  handOver.wake();
  return { status: 200, message: 'succès', data: { uniq_id: uniqId, code, expires_at: Math.floor(expiresAt.getTime() / 1000) } };
}

// ---------------------------------------------------------------- the hand-over to the log provider

const handOver = {
  wanted: false,
  running: null,
  wake() {
    handOver.wanted = true;
    if (handOver.running) return;
    handOver.running = handOver
      .drain()
      .catch((error) => console.error('hand-over failed', error))
      .finally(() => {
        handOver.running = null;
        if (handOver.wanted) handOver.wake();
      });
  },
  async drain() {
    while (handOver.wanted) {
      handOver.wanted = false;
      let claimed;
      do {
        const now = new Date();
        claimed = await db.transaction((sql) => claim(sql, now));
        if (claimed.length > 0) await settle(claimed.map((entry) => ({ entry, payload: JSON.parse(open(entry.payload)) })));
      } while (claimed.length === BATCH);
    }
  },
};
setInterval(handOver.wake, 1_000).unref();

async function claim(sql, now) {
  const due = [time(now), 0];
  let wanted = BATCH;
  if (db.dialect === 'mysql') {
    wanted = (await sql.all(S.OUTBOX_DUE_IDS(BATCH), due)).length;
    if (wanted === 0) return [];
  }
  const rows = await sql.all(S.OUTBOX_CLAIM(db.dialect, wanted), due);
  if (rows.length === 0) return rows;
  const ids = rows.map((row) => row.id);
  await sql.later(S.OUTBOX_LEASE(ids), [time(new Date(now.getTime() + LEASE_MS)), owner, ...ids]);
  return rows;
}

/** Each message accepted by the log provider (which logs nothing at the bench's level), recorded in one unit. */
async function settle(handedOver) {
  const now = new Date();
  await db.transaction(async (sql) => {
    for (const { entry } of handedOver) await sql.later(S.MARK_SENT, ['log', `log-${entry.record_id}`, time(now), entry.record_id]);
    await recordAttempts(sql, handedOver.map(({ entry }) => entry.record_id), time(now));
    const ids = handedOver.map(({ entry }) => entry.id);
    await sql.later(S.OUTBOX_DONE(ids), ids);
    const recordIds = handedOver.map(({ entry }) => entry.record_id);
    for (const message of await sql.all(S.MESSAGES_FOR_EVENTS(recordIds), recordIds)) {
      if (message.webhook_url !== null || message.webhook_events !== null) throw new Error('the floor writes no webhook events: use an account without a webhook');
    }
  });
}

/** Each message's submit to the log connector, in multi-row statements of power-of-two sizes, as the service writes many rows. */
async function recordAttempts(sql, recordIds, at) {
  for (let start = 0; start < recordIds.length; ) {
    const size = 2 ** Math.floor(Math.log2(recordIds.length - start));
    await sql.later(S.MESSAGE_ATTEMPTS(size), recordIds.slice(start, start + size).flatMap((id) => [id, 'log', 'accepted', at]));
    start += size;
  }
}

// ---------------------------------------------------------------- POST /v1/otp/verify

async function verify(principal, body) {
  const phone = phoneOf(body.to);
  if (!phone) throw invalid('to: numéro de téléphone invalide');
  if (typeof body.code !== 'string') throw invalid('code: code OTP invalide');
  const { accountId } = principal;
  const now = new Date();
  const outcome = await db.transaction(async (sql) => {
    const [[latest], [failures]] = await sql.allEach(
      [S.LATEST_OTP(db.dialect), [accountId, phone.e164]],
      [S.RECENT_FAILURES, [accountId, phone.e164, time(new Date(now.getTime() - FAILURE_WINDOW_MS))]],
    );
    if (Number(failures.count) >= MAX_FAILURES) return 'recipient-locked';
    const usable = latest?.status === 'pending' && latest.delivery_status !== 'failed' && latest.message_status !== 'failed' ? latest : null;
    const given = Buffer.from(hashCode(usable?.uniq_id ?? ABSENT_OTP_ID, body.code.toUpperCase()), 'hex');
    const stored = Buffer.from(usable?.code_hash ?? ABSENT_HASH, 'hex');
    const matches = given.length === stored.length && timingSafeEqual(given, stored);
    const failed = async () => {
      await sql.later(S.RECIPIENT_FAILURE, [accountId, phone.e164]);
      await sql.later(S.INSERT_FAILURE, [accountId, phone.e164, time(now)]);
      return 'invalid';
    };
    if (!usable) return failed();
    if (readTime(usable.expires_at) <= now) return 'expired';
    if (Number(usable.attempts) >= MAX_ATTEMPTS) return 'otp-locked';
    if (!matches) {
      await sql.later(S.WRONG_ATTEMPT, [usable.uniq_id]);
      return failed();
    }
    await sql.later(S.MARK_VERIFIED, [time(now), usable.uniq_id]);
    return usable;
  });
  if (outcome === 'invalid') throw invalid('code: code OTP invalide');
  if (outcome === 'expired') throw new Refusal(410, 'code_otp_expir', ['code: le code OTP a expiré']);
  if (typeof outcome === 'string') throw new Refusal(429, 'trop_de_requetes', ['code: trop de tentatives']);
  const seconds = (date) => date.toISOString().slice(0, 19).replace('T', ' ');
  return {
    status: 200,
    message: 'success',
    data: {
      uniq_id: outcome.uniq_id,
      to: phone.e164,
      channel: outcome.channel.toLowerCase(),
      verified_at: seconds(now),
      send_at: seconds(readTime(outcome.created_at)),
      application_name: outcome.application_name,
    },
  };
}

// ---------------------------------------------------------------- HTTP

const ROUTES = { '/v1/otp/send': send, '/v1/otp/verify': verify };

function answer(response, body) {
  const text = JSON.stringify(body);
  response.writeHead(body.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('corps: un objet JSON est attendu');
  return body;
}

const server = createServer(async (request, response) => {
  try {
    if (request.method === 'GET' && request.url === '/health/live') return answer(response, { status: 200, message: 'success' });
    const route = request.method === 'POST' ? ROUTES[request.url] : undefined;
    if (!route) return answer(response, { status: 404, message: 'Non trouvé' });
    const principal = await principalOf(request.headers.authorization);
    if (!principal) return answer(response, { status: 401, message: 'Non autorisé' });
    if (!(await withinRateLimit(principal))) return answer(response, { status: 429, message: 'trop_de_requetes', errors: ['requêtes: limite atteinte'] });
    answer(response, await route(principal, await readBody(request).catch(() => Promise.reject(invalid('corps: JSON invalide')))));
  } catch (error) {
    if (error instanceof Refusal) return answer(response, { status: error.status, message: error.message, errors: error.errors ?? [] });
    console.error(error);
    if (!response.headersSent) answer(response, { status: 500, message: 'erreur_interne' });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env.PORT ?? 3000), env.HOST ?? '127.0.0.1', () => console.log(`OTP floor serving on ${env.PORT} (${db.dialect})`));
const stop = () => server.close(async () => (await handOver.running, await db.close(), process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
