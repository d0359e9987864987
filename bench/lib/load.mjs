// Load, with autocannon's API: one measured run, and the untimed harvests verification needs.
import autocannon from 'autocannon';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Runs `requests` (autocannon request objects) for `duration` s, or `amount` of them, and summarises the run. A run of
 * `amount` requests is timed to its last answer: autocannon ends it at its next one-second tick.
 */
export async function measure(url, requests, { connections, duration, amount }) {
  const started = performance.now();
  let answered = started;
  const timed = !amount ? requests : requests.map((request) => ({
    ...request,
    onResponse: (...args) => {
      answered = performance.now();
      return request.onResponse?.(...args);
    },
  }));
  const result = await autocannon({ url, connections, requests: timed, ...(amount ? { amount } : { duration }) });
  const seconds = amount ? (answered - started) / 1000 : result.duration;
  return {
    seconds,
    rps: Math.round(amount ? result.requests.total / seconds : result.requests.average),
    // unrounded, for runs of a few large requests a second
    per_second: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Waits until the dispatcher has handed over every message accepted so far (read from GET /metrics). */
export async function outboxDrained(url, metricsToken, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    if (/^outbox_backlog 0$/m.test(metrics)) return;
    if (Date.now() > deadline) throw new Error(`the outbox did not drain within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Sends `amount` requests as fast as 50 connections allow and collects what `collect` keeps of each 200 body.
 * `collect` also gets the connection's context, where `setupRequest` may note what it sent (a connection
 * has one request in flight at a time).
 */
export async function harvest(url, request, amount, collect) {
  const kept = [];
  await autocannon({
    url,
    connections: 50,
    amount,
    initialContext: {},
    requests: [{ ...request, onResponse: (status, body, context) => status === 200 && kept.push(collect(JSON.parse(body).data, context)) }],
  });
  return kept;
}

const NUMBERS = 89_999_999; // a prime: i × SPREAD mod NUMBERS visits every number once
const SPREAD = 48_271;

/** The `n`th of 89,999,999 valid Côte d'Ivoire mobile numbers, scattered so that consecutive ones sort far apart. */
export const recipientNumber = (n) => `+22507${10_000_000 + ((n % NUMBERS) * SPREAD) % NUMBERS}`;

/** A fresh number each call, at a random place in the indexes, as real recipients are. */
let numbers = Math.floor(Math.random() * 40_000_000);
export const nextRecipient = () => recipientNumber(numbers++);

export const ours = {
  send: (auth) => ({
    method: 'POST',
    path: '/v1/otp/send',
    headers: { ...JSON_HEADERS, authorization: auth },
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ channel: 'SMS', to: nextRecipient(), message: 'Votre code est ##OTP##. Il expire dans 5 minutes.' }),
    }),
  }),
  /** Each request verifies the right code of its own OTP. */
  verify: (auth, pairs) => verifying(auth, pairs, (pair) => pair.code),
  /** Wrong codes, at most 4 per OTP so that none gets locked. */
  verifyWrong: (auth, pairs) => verifying(auth, pairs, (pair) => (pair.code === '000000' ? '111111' : '000000')),
  smsOut: (auth, ids) => {
    let next = 0;
    return {
      method: 'GET',
      path: '/v1/sms/out/x',
      headers: { authorization: auth },
      setupRequest: (request) => ({ ...request, path: `/v1/sms/out/${ids[next++ % ids.length]}` }),
    };
  },
  account: (auth) => ({ method: 'GET', path: '/v1/account', headers: { authorization: auth } }),
  /**
   * POST /v1/sms/send to `recipients` numbers at once, each request to numbers of its own; `later` schedules them
   * a day ahead, so that acceptance is measured without the hand-over sharing the CPU; with `webhookUrl` every
   * message's events are POSTed there.
   */
  smsSend: (auth, recipients, later = false, webhookUrl = undefined) => ({
    method: 'POST',
    path: '/v1/sms/send',
    headers: { ...JSON_HEADERS, authorization: auth },
    setupRequest: (request) => {
      const to = Array.from({ length: recipients }, nextRecipient);
      const sendAt = later ? { send_at: new Date(Date.now() + 86_400_000).toISOString() } : {};
      const hook = webhookUrl ? { webhook_url: webhookUrl } : {};
      return { ...request, body: JSON.stringify({ to: recipients === 1 ? to[0] : to, message: 'Votre commande est prête. Merci de votre confiance.', ...sendAt, ...hook }) };
    },
  }),
};

/** Verifications of `pairs` in turn, with the code `codeOf` picks for each; null without pairs. */
function verifying(auth, pairs, codeOf) {
  if (!pairs) return null;
  let next = 0;
  return {
    method: 'POST',
    path: '/v1/otp/verify',
    headers: { ...JSON_HEADERS, authorization: auth },
    setupRequest: (request) => {
      const pair = pairs[next++ % pairs.length];
      return { ...request, body: JSON.stringify({ to: pair.to, code: codeOf(pair) }) };
    },
  };
}

export const baseline = {
  body: JSON.stringify({ to: '+15551234567', message: 'Your code is ##OTP##. It expires in 5 minutes.', otp_length: 6 }),
  send: (token) => ({ method: 'POST', path: '/api/otp/send', headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` }, body: baseline.body }),
  verify: (token, pairs) => {
    if (!pairs) return null;
    let next = 0;
    return {
      method: 'POST',
      path: '/api/otp/verify',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
      setupRequest: (request) => {
        const pair = pairs[next++ % pairs.length];
        return { ...request, body: JSON.stringify({ uniq_id: pair.uniq_id, code: pair.code }) };
      },
    };
  },
};

/** Calls of the API with a bearer credential: the `data` of each answer, an error for any other status than 2xx. */
export function apiCaller(url, auth) {
  return async (method, path, body) => {
    const answer = await fetch(`${url}${path}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.data;
  };
}
