// npm run bench -- [--db sqlite|mysql|both|galera] [--duration 8] [--warmup 3] [--connections 1,10,50] [--rounds 2] [--fill] [--quick]
//                   [--webhook-events N] (webhook fan-out size, default 20000) [--webhooks-only] (the fan-out alone)
//                   [--address-book] (list paging on 1,000,000 contacts) [--address-book-only] (that alone)
//                   [--sms-out] (GET /v1/sms/out paging on 1,000,000 messages) [--sms-out-only] (that alone)
//                   [--metrics] (GET /v1/metrics over a year of 1,000,000 messages) [--metrics-only] (that alone)
//                   [--import-rows N] (CSV import size, default 50000) [--imports-only] (the CSV import alone)
//                   [--handover-messages N] (lot size of the SMSC hand-over, default 10000) [--handover-only] (that alone)
//                   [--sms-send-only] (the OTP send with its baseline and the POST /sms/send scenarios alone)
//                   [--campaign] (launch and materialisation of a campaign) [--campaign-only] (that alone)
//                   [--campaign-recipients N] (its audience, default 50000)
//                   [--kannel-only] (POST /sms/send beside Kannel alone) [--kannel-bulk-requests N] (default 50)
//                   [--workers N|auto] (the service's WORKERS, default 1; RSS is then the first process's)
//                   [--skip-build] (dist/ as it is, for a bench beside another one)
//                   [--port N] (ours on N, the baseline on N + 1, the OTP floor on N + 2, Kannel on N + 10 to N + 12;
//                   default 3401) [--mariadb-port N] (default 3326)
//                   [--buffer-pool-mb N] (MariaDB's innodb_buffer_pool_size; by default its own 128 MB, and 2,048 MB with
//                   --fill, whose 2,000,000 rows have indexes that 128 MB cannot hold)
//
// --db galera: send and verify through three instances, one per node of a three-node Galera cluster, against one
// instance on a single MariaDB, at the last of --connections (see lib/galera.mjs); nothing else.
//
// Builds the service, runs it in production mode (log level warn) on SQLite and then on MariaDB, and
// measures each route with autocannon at each connection count, interleaved with the hand-written
// baseline server of ../shared/bench/baseline (ours, baseline, ours, baseline) and, for the OTP send and the
// verification, with their floor (bench/floor: the same statements behind a bare node:http server). Prints a table with
// req/s, p50, p99 and peak RSS, and each route's ratio to the baseline (medians of the rounds), then the table of
// `route, ours, floor, ratio` (lib/report.mjs: each figure of the targets at the last connection count), and writes
// `{db, rows, details}` to bench/results/<time>.json and bench/results/latest.json. Each run starts once the
// dispatcher has handed over the messages of the sends before it and the process measured has been idle for half a second
// (the receipts and events those sends left done), and so has the MariaDB server (its purge and flushing done). The
// OTP send's fraud guard runs are measured in an order turned by one each round.
// The OTP send is also measured for an account with the fraud guard off and one with every velocity rule enforced (each
// request from an end user of its own): the default policy is read against the guard off, enforced velocity against
// the guard off taking the same requests, end users included (bench/lib/fraud-guard.mjs).
// POST /sms/send is measured with one recipient (beside the OTP send), the same with every message's events POSTed to a
// webhook_url on a receiver in this process, and scheduled a day ahead with one and with 1,000
// recipients per request (accepted recipients per second, without the hand-over sharing the CPU), the latter beside its
// floor: the same rows written by the bench itself right after each of its runs, one transaction per 1,000 (lib/send-floor.mjs).
// --fill first measures send and verify on the empty database, then inserts 1,000,000 OTPs and
// 1,000,000 messages with bulk SQL, lets the database write back what the load left, warms up again and
// measures them again, both times interleaved with the baseline, whose change between the two phases is
// the machine's.
// --address-book writes 1,000,000 contacts, 100,000 of them in one group, with bulk SQL, and measures the first and the
// 5,000th page of GET /v1/contact and of GET /v1/group/{id}/contacts alike (keyset paging: the ratio should be near 1).
// --sms-out and --metrics share one fill: 1,000,000 messages of one account over the last 360 days, written with bulk
// SQL, three in five of them matching every filter that can lead GET /v1/sms/out's query (600,000 rows, 6,000 pages of
// 100). --sms-out measures the first and the 5,000th page of GET /v1/sms/out?limit=100 alike, unfiltered and under each
// filter (the ratio should be near 1); --metrics prints the EXPLAIN plan of GET /v1/metrics's count on the filled table
// (a read of a whole table or index stops the bench), then measures GET /v1/metrics over the whole year by month, by
// week, by day and by day for one campaign, one client at a time: req/s, p50 and p99.
// Then the webhook fan-out: N due events written to the webhook outbox with bulk SQL, each to a receiver in this
// process; events delivered per second (signed, every attempt recorded) from the first to the last received, the
// median of at least 3 lots.
// Then the CSV import: a file of N contacts POSTed to /v1/contact/import, rows imported per second from the request
// to the job's end, beside the same rows written by the bench itself with plain 500-row INSERTs (the floor), in
// turn, at least 3 rounds after a first, cold import (reported apart); the ratio of the two medians.
// --campaign writes a group of N contacts with bulk SQL and launches a campaign to it through the API: the launch timed
// to its answer (the audience frozen and debited), then the worker from that answer to the commit of its last chunk
// (every recipient has its message, each with its outbox entry), messages per second; in turn with the floor: the same
// rows written by the bench itself, plain 500-row INSERTs and the campaign's position per transaction; at least 3
// rounds, the ratio of the two medians. The log provider hands the messages over while the worker writes them; the
// floor is timed alone (its outbox entries due later, then deleted) and beside the same hand-over of its rows.
// Last, the hand-over to a local SMSC: the service restarted with SMS_PROVIDER=smpp and SMPP_WINDOW=10, bound to an SMSC
// in this process, sends lots of N messages to a group through POST /v1/sms/send; messages per second of each lot at the
// SMSC, from its first submit_sm to its last, at least 3 rounds, the median; and how long an OTP sent once a tenth of each
// lot is out takes to reach the SMSC; in turn with each of its lots, a lot through the router: three SMSCs, one connector
// each, one route taking turns over them (SMS_ROUTING_FILE), and the ratio of the medians.
// Before the hand-over, the OTP send under a routing file of 50 routes over three connectors (lib/routing.mjs), against
// the baseline at the last of --connections, beside the send's ratio without a routing file.
// Then POST /sms/send beside Kannel (lib/kannel.mjs), both asking the same SMSC for receipts: one recipient a request and
// 1,000 a request, in turn, accepted per second.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addressBookPaging, fillAddressBook } from './lib/address-book.mjs';
import { fill } from './lib/fill.mjs';
import { FRAUD_SEND, fraudScenarios, inRoundOrder, printFraudGuard } from './lib/fraud-guard.mjs';
import { apiCaller, baseline, harvest, measure, nextRecipient, outboxDrained, ours } from './lib/load.mjs';
import { baselineDirectory, build, mariadb, ROOT, rssSampler, runCli, SERVICE_NODE_FLAGS, settled, startNode, withOutput } from './lib/processes.mjs';
import { campaignThroughput } from './lib/campaigns.mjs';
import { importThroughput } from './lib/imports.mjs';
import { galeraComparison, galeraLines } from './lib/galera.mjs';
import { fillMessageYear, metricsLoad, metricsPlans, smsOutPaging } from './lib/message-year.mjs';
import { smscHandOver, startSmsc } from './lib/hand-over.mjs';
import { kannelComparison } from './lib/kannel.mjs';
import { median, medianLot, printFloorTable, printTable, SMS_SEND, summarise, targetRows } from './lib/report.mjs';
import { routedSend } from './lib/routing.mjs';
import { sendFloor } from './lib/send-floor.mjs';
import { startReceiver, webhookFanOut } from './lib/webhooks.mjs';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '1,10,50' },
    rounds: { type: 'string', default: '2' },
    fill: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    'buffer-pool-mb': { type: 'string' },
    'webhook-events': { type: 'string', default: '20000' },
    'webhooks-only': { type: 'boolean', default: false },
    'address-book': { type: 'boolean', default: false },
    'address-book-only': { type: 'boolean', default: false },
    'sms-out': { type: 'boolean', default: false },
    'sms-out-only': { type: 'boolean', default: false },
    metrics: { type: 'boolean', default: false },
    'metrics-only': { type: 'boolean', default: false },
    'import-rows': { type: 'string', default: '50000' },
    'imports-only': { type: 'boolean', default: false },
    'handover-messages': { type: 'string', default: '10000' },
    'handover-only': { type: 'boolean', default: false },
    'sms-send-only': { type: 'boolean', default: false },
    campaign: { type: 'boolean', default: false },
    'campaign-only': { type: 'boolean', default: false },
    'campaign-recipients': { type: 'string', default: '50000' },
    'kannel-only': { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    'skip-build': { type: 'boolean', default: false },
    'kannel-bulk-requests': { type: 'string', default: '50' },
    port: { type: 'string', default: '3401' },
    'mariadb-port': { type: 'string', default: '3326' },
  },
});
const duration = Number(args.quick ? 4 : args.duration);
const warmup = Number(args.quick ? 1 : args.warmup);
const connectionCounts = (args.quick ? '50' : args.connections).split(',').map(Number);
const rounds = Number(args.quick ? 1 : args.rounds);
const databases = args.db === 'both' ? ['sqlite', 'mysql'] : args.db === 'galera' ? [] : [args.db];
/** The one part of the bench asked for alone, if any. */
const only = ['webhooks-only', 'address-book-only', 'sms-out-only', 'metrics-only', 'imports-only', 'handover-only', 'sms-send-only', 'campaign-only', 'kannel-only'].find(
  (part) => args[part],
);
const smsOut = args['sms-out'] || only === 'sms-out-only';
const metrics = args.metrics || only === 'metrics-only';
const bufferPoolMb = args['buffer-pool-mb'] ?? (args.fill ? '2048' : null);

const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const MARIADB = { MARIADB_PORT: args['mariadb-port'], MARIADB_DATADIR: `/tmp/bench-mariadb-${args['mariadb-port']}` };
const METRICS_TOKEN = 'bench-metrics-token';
const OURS_PORT = Number(args.port);
const BASELINE_PORT = OURS_PORT + 1;
const FLOOR_PORT = OURS_PORT + 2;

if (!args['skip-build']) build();
const report = {
  started: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
  settings: { duration, warmup, connections: connectionCounts, rounds, buffer_pool_mb: bufferPoolMb, workers: args.workers },
  databases: {},
};

for (const db of databases) {
  console.log(`\n=== ${db} ===`);
  report.databases[db] = await benchDatabase(db);
}

if (args.db === 'galera') {
  console.log('\n=== galera ===');
  report.galera = await galeraComparison({
    port: OURS_PORT,
    mariadbPort: Number(args['mariadb-port']),
    secret: SECRET,
    metricsToken: METRICS_TOKEN,
    connections: connectionCounts.at(-1),
    duration,
    warmup,
    rounds,
  });
}

const rows = Object.entries(report.databases).flatMap(([db, result]) => targetRows(db, result, connectionCounts.at(-1)));
const written = { db: Object.keys(report.databases).join(',') || args.db, rows, ...report };
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const file = join(ROOT, 'bench', 'results', `${report.started.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(written, null, 2)}\n`);
for (const [db, result] of Object.entries(report.databases)) {
  if (Object.keys(result.scenarios).length > 0) printTable(db, result);
  printFraudGuard(result.scenarios);
  if (result.webhooks) console.log(`${db} webhook fan-out: ${result.webhooks.per_second} events/s (median of ${result.webhooks.lots.length} lots of ${result.webhooks.events}: ${result.webhooks.lots.join(', ')})`);
  for (const [list, paging] of [...Object.entries(result.address_book ?? {}), ...Object.entries(result.sms_out ?? {}).map(([name, paging]) => [`GET /sms/out ${name}`, paging])]) {
    console.log(`${db} ${list} page ${paging.page} ÷ page 1: ${paging.ratio} (${paging.deep.rps} ÷ ${paging.first.rps} req/s; p99 ${paging.deep.p99} and ${paging.first.p99} ms)`);
  }
  for (const [name, figures] of Object.entries(result.metrics ?? {})) {
    console.log(`${db} GET /metrics for a year by ${name}: ${figures.rps} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
  }
  if (result.imports) console.log(`${db} CSV import: ${importLine(result.imports)}`);
  if (result.campaign) console.log(`${db} campaign: ${campaignLine(result.campaign)}`);
  if (result.hand_over) console.log(`${db} hand-over to a local SMSC: ${handOverLine(result.hand_over)}`);
  if (result.hand_over) console.log(`${db} hand-over through the router to three local SMSCs: ${routedHandOverLine(result.hand_over)}`);
  if (result.routed_send) console.log(`${db} OTP send with 50 routes over 3 connectors: ${routedSendLine(result)}`);
}
if (report.galera) for (const line of galeraLines(report.galera)) console.log(`galera ${line}`);
if (rows.length > 0) printFloorTable(rows);
console.log(`\nfigures written to ${file}`);

async function benchDatabase(db) {
  const work = join('/tmp', `bench-${db}-${process.pid}`);
  mkdirSync(work, { recursive: true });
  let mysql = {};
  if (db === 'mysql') {
    const bufferPool = bufferPoolMb ? { MARIADB_EXTRA_ARGS: `--innodb-buffer-pool-size=${Number(bufferPoolMb)}M` } : {};
    mariadb('start', { ...MARIADB, MARIADB_FAST: '0', ...bufferPool });
    mysql = { host: '127.0.0.1', port: MARIADB.MARIADB_PORT, user: 'app', password: 'app', pid: Number(readFileSync(join(MARIADB.MARIADB_DATADIR, 'mariadb.pid'), 'utf8')) };
    await recreateDatabases(mysql, ['app_bench', 'app_baseline', 'app_floor']);
  }
  const oursEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(OURS_PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${OURS_PORT}`,
    JWT_SECRET: SECRET,
    OTP_SECRET: SECRET,
    DATA_DIR: work,
    // counted as in production, but high enough never to refuse the load
    RATE_LIMIT_PER_MINUTE: '1000000000',
    METRICS_TOKEN,
    // the fan-out's receiver listens on 127.0.0.1
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // the work the floor does, as floor-statements.e2e-spec.ts holds it equal: no receipts simulated by the log provider
    // (an SMSC's receipts are measured beside Kannel's)
    LOG_RECEIPT_DELAY_MS: '0',
    WORKERS: args.workers,
    ...(db === 'sqlite'
      ? { DB_TYPE: 'sqlite', DB_PATH: join(work, 'messaging.sqlite') }
      : { DB_TYPE: 'mysql', DB_HOST: mysql.host, DB_PORT: mysql.port, DB_USER: mysql.user, DB_PASSWORD: mysql.password, DB_NAME: 'app_bench' }),
  };
  const floorEnv = { ...oursEnv, PORT: String(FLOOR_PORT), ...(db === 'sqlite' ? { DB_PATH: join(work, 'floor.sqlite') } : { DB_NAME: 'app_floor' }) };
  const baselineEnv = {
    PORT: String(BASELINE_PORT),
    ...(db === 'sqlite'
      ? { BASELINE_DB: 'sqlite', SQLITE_FILE: join(work, 'baseline.sqlite') }
      : { BASELINE_DB: 'mysql', MYSQL_HOST: mysql.host, MYSQL_PORT: mysql.port, MYSQL_USER: mysql.user, MYSQL_PASSWORD: mysql.password, MYSQL_DATABASE: 'app_baseline' }),
  };

  const account = runCli(oursEnv, 'account:create', '--name', 'Bench', '--balance', '10000000000', '--sender', 'BENCH');
  const jwt = runCli(oursEnv, 'token:issue', '--user', account.user_id, '--ttl', '86400').token;
  const keyAuth = `Bearer ${account.api_key}`;
  // as `npm run start:prod` runs it
  const server = await startNode('service', [...SERVICE_NODE_FLAGS, 'dist/main.js'], { env: oursEnv, port: OURS_PORT, healthPath: '/health/live' });
  // the OTP floor's work, as floor-statements.e2e-spec.ts holds it equal: the account's velocity signals off (what they
  // cost is read on accounts of their own, lib/fraud-guard.mjs)
  await apiCaller(server.url, keyAuth)('PUT', '/v1/fraud/policy', { modes: { velocity: 'off' } });
  const baselineDir = baselineDirectory();
  const reference = await startNode('baseline', ['server.mjs'], { env: baselineEnv, cwd: baselineDir, port: BASELINE_PORT, healthPath: '/health' });
  const floorKey = `Bearer ${runCli(floorEnv, 'account:create', '--name', 'Bench floor', '--balance', '10000000000', '--sender', 'BENCH').api_key}`;
  const floor = await startNode('floor', ['bench/floor/server.mjs'], { env: floorEnv, port: FLOOR_PORT, healthPath: '/health/live' });
  const baselineToken = (await import(join(baselineDir, 'server.mjs'))).signJwt(
    { sub: '1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 86400 },
    'baseline-jwt-secret',
  );

  const sendRequest = ours.send(keyAuth);
  const hooks = await startReceiver();
  let smsIds = [];
  const rates = new Map();

  /** OTPs for a verification run: enough for what the last run of this kind managed, never reused. */
  /** OTPs to verify; none when the harvest got no answer in time (a saturated machine): that run is skipped. */
  const verificationPairs = async (key, harvestFrom) => {
    const last = rates.get(key);
    const warming = key.startsWith('warm ');
    // before any verification has run, three times the warm-up's send rate
    const rate = last ?? rates.get(`warm:${key.replace(/ \d+$/, '')}`) ?? 3 * (rates.get('warm:send (API key)') ?? 1000);
    // runs vary by ±30 % from one to the next on a shared machine, and a short warm-up by more
    const wanted = Math.ceil(rate * (warming ? warmup : duration) * (last ? 1.6 : 2.5)) + 500;
    const pairs = await harvestFrom(wanted);
    return pairs.length > 0 ? pairs : null;
  };
  const recipientPairs = async (amount, target = server, auth = keyAuth) => {
    // the send answer has no recipient: each connection notes the one it sent to
    const request = {
      ...ours.send(auth),
      setupRequest: (req, context) => {
        context.to = nextRecipient();
        return { ...req, body: JSON.stringify({ channel: 'SMS', to: context.to, message: 'Votre code est ##OTP##.' }) };
      },
    };
    return harvest(target.url, request, amount, (data, context) => ({ to: context.to, code: data.code, uniq_id: data.uniq_id }));
  };
  const baselinePairs = async (amount) =>
    harvest(reference.url, baseline.send(baselineToken), amount, (data) => ({ uniq_id: data.uniq_id, code: data.code }));

  const allScenarios = [
    { name: 'send (API key)', against: 'send', floor: 'send', run: async () => sendRequest },
    ...(await fraudScenarios(server.url, oursEnv)),
    { name: 'send (JWT)', against: 'send', run: async () => ours.send(`Bearer ${jwt}`) },
    { name: 'verify (right code)', against: 'verify', floor: 'verify', run: async (key) => ours.verify(keyAuth, await verificationPairs(key, recipientPairs)) },
    {
      name: 'verify (wrong code)',
      against: 'verify',
      run: async (key) => {
        const pairs = await verificationPairs(key, async (n) => recipientPairs(Math.ceil(n / 4)));
        return ours.verifyWrong(keyAuth, pairs);
      },
    },
    {
      name: 'GET /sms/out/{id}',
      against: null,
      run: async () => {
        if (smsIds.length === 0) smsIds = await harvest(server.url, sendRequest, 5000, (data) => data.uniq_id);
        return ours.smsOut(keyAuth, smsIds);
      },
    },
    { name: 'GET /account', against: null, run: async () => ours.account(keyAuth) },
    { name: SMS_SEND.one, against: null, run: async () => ours.smsSend(keyAuth, 1) },
    // last of a round's hand-overs: the events it leaves are delivered before the next scenario starts
    { name: SMS_SEND.oneWebhook, against: null, run: async () => ours.smsSend(keyAuth, 1, false, hooks.url), settle: () => hooks.quiet() },
    { name: SMS_SEND.oneLater, against: null, run: async () => ours.smsSend(keyAuth, 1, true) },
    // its floor writes right after it, into the same tables (lib/send-floor.mjs)
    { name: SMS_SEND.manyLater, against: null, run: async () => ours.smsSend(keyAuth, SMS_SEND.many, true), beside: () => bulkFloor() },
  ];
  let floorAccount;
  const bulkFloor = async () => {
    floorAccount ??= runCli(oursEnv, 'account:create', '--name', 'Bench send floor', '--balance', '0', '--sender', 'FLOOR');
    const { account_id: accountId, user_id: userId, sender_id: senderId } = floorAccount;
    const perSecond = await sendFloor(oursEnv, { accountId, userId, senderId, sender: 'FLOOR' }, { warmup, seconds: duration, perRequest: SMS_SEND.many });
    console.log(`floor    the rows of 1,000-recipient sends written plainly for ${duration} s: ${perSecond} recipients/s`);
    return perSecond;
  };
  const bulkFloorRuns = [];
  // POST /sms/send's figures are read against the OTP send of the same run
  const smsSendScenarios = new Set(['send (API key)', ...Object.values(FRAUD_SEND), SMS_SEND.one, SMS_SEND.oneWebhook, SMS_SEND.oneLater, SMS_SEND.manyLater]);
  const scenarios = only === 'sms-send-only' ? allScenarios.filter((scenario) => smsSendScenarios.has(scenario.name)) : allScenarios;
  const references = {
    send: async () => baseline.send(baselineToken),
    verify: async (key) => baseline.verify(baselineToken, await verificationPairs(key, baselinePairs)),
  };

  const floors = {
    send: async () => ours.send(floorKey),
    verify: async (key) => ours.verify(floorKey, await verificationPairs(key, (amount) => recipientPairs(amount, floor, floorKey))),
  };

  const result = { scenarios: {}, baseline: {}, floor: {} };
  const record = (table, name, connections, figures) => {
    table[name] ??= {};
    (table[name][connections] ??= []).push(figures);
  };
  // a measurement starts on a quiet machine: the service's messages of the sends before it handed over, and what they
  // left done, also before a run of the floor or the baseline, which would otherwise share the cores with that work;
  // every process measured idle; and a quiet database server, whose purge and flushing would weigh on the next run
  const quiet = async () => {
    await outboxDrained(server.url, METRICS_TOKEN);
    await Promise.all([server.pid, floor.pid, reference.pid, mysql.pid].filter(Boolean).map((pid) => settled(pid)));
  };
  const run = async (target, table, name, key, requestFor, connections) => {
    const request = await requestFor(key);
    if (request === null) return console.log(`${target.name.padEnd(8)} ${name.padEnd(22)} c=${String(connections).padStart(2)} skipped: no OTP to verify was sent`);
    await quiet();
    const rss = rssSampler(target.pid);
    const figures = await measure(target.url, [request], { connections, duration });
    figures.rss_mb = rss.stop();
    rates.set(key, figures.rps);
    record(table, name, connections, figures);
    console.log(`${target.name.padEnd(8)} ${name.padEnd(22)} c=${String(connections).padStart(2)} ${figures.rps} req/s p50 ${figures.p50} ms p99 ${figures.p99} ms rss ${figures.rss_mb} MB${figures.non2xx ? ` non-2xx ${figures.non2xx}` : ''}`);
  };

  // the warm-up rates size the first harvests of OTPs to verify
  const warmUp = async (chosen) => {
    const warm = async (target, key, request) => {
      if (request) rates.set(key, (await measure(target.url, [request], { connections: 50, duration: warmup })).rps);
    };
    for (const scenario of chosen) await warm(server, `warm:${scenario.name}`, await scenario.run(`warm ${scenario.name}`));
    for (const against of new Set(chosen.map((scenario) => scenario.against).filter(Boolean))) {
      await warm(reference, `warm:baseline ${against}`, await references[against](`warm ${against}`));
    }
    for (const route of new Set(chosen.map((scenario) => scenario.floor).filter(Boolean))) {
      await warm(floor, `warm:floor ${route}`, await floors[route](`warm floor ${route}`));
    }
  };

  if (only && only !== 'sms-send-only') {
    // the route scenarios are skipped
  } else if (args.fill) {
    result.fill = await fillComparison({ server, reference, oursEnv, account, run, warmUp, scenarios, references, result });
  } else {
    await warmUp(scenarios);
    try {
      for (const connections of connectionCounts) {
        for (let round = 0; round < rounds; round++) {
          for (const scenario of inRoundOrder(scenarios, round)) {
            await run(server, result.scenarios, scenario.name, `${scenario.name} ${connections}`, scenario.run, connections);
            await scenario.settle?.();
            if (scenario.beside && connections === connectionCounts.at(-1)) bulkFloorRuns.push(await scenario.beside());
            if (scenario.floor) await run(floor, result.floor, scenario.floor, `floor ${scenario.floor} ${connections}`, floors[scenario.floor], connections);
            if (scenario.against && !(result.baseline[scenario.against]?.[connections]?.length > round)) {
              await run(reference, result.baseline, scenario.against, `baseline ${scenario.against} ${connections}`, references[scenario.against], connections);
            }
          }
        }
      }
    } catch (error) {
      // a process that ended mid-run tells why in its output
      const ended = [server, floor, reference].find((each) => each.ended !== null);
      throw ended ? withOutput(error, ended) : error;
    }
  }
  for (const scenario of scenarios) result.scenarios[scenario.name] && (result.scenarios[scenario.name].against = scenario.against);
  if (bulkFloorRuns.length > 0) {
    result.send_floor = { per_request: SMS_SEND.many, seconds: duration, rounds: bulkFloorRuns, per_second: median(bulkFloorRuns) };
  }

  if (args['address-book'] || only === 'address-book-only') {
    const bookAccount = runCli(oursEnv, 'account:create', '--name', 'Bench address book', '--balance', '0', '--sender', 'BOOK');
    const started = Date.now();
    const groupId = await fillAddressBook(oursEnv, bookAccount.account_id, 1_000_000, 100_000);
    console.log(`address book: 1,000,000 contacts and 100,000 members written in ${Math.round((Date.now() - started) / 1000)} s`);
    result.address_book = await addressBookPaging(server.url, `Bearer ${bookAccount.api_key}`, groupId, { connections: 10, duration });
  }

  if (smsOut || metrics) {
    const yearAccount = runCli(oursEnv, 'account:create', '--name', 'Bench messages', '--balance', '0', '--sender', 'YEAR');
    const started = Date.now();
    const year = await fillMessageYear(oursEnv, yearAccount, 1_000_000);
    console.log(`a year of messages: 1,000,000 written in ${Math.round((Date.now() - started) / 1000)} s`);
    const auth = `Bearer ${yearAccount.api_key}`;
    if (smsOut) result.sms_out = await smsOutPaging(server.url, auth, year, yearAccount.sender_id, { connections: 10, duration });
    if (metrics) {
      result.metrics_plans = await metricsPlans(oursEnv, yearAccount, year);
      // one client: each request counts a year, and a second one would only wait for it
      result.metrics = await metricsLoad(server.url, auth, year, { connections: 1, duration });
    }
  }

  if (!only || only === 'webhooks-only') {
    const fanOutAccount = runCli(oursEnv, 'account:create', '--name', 'Bench webhooks', '--balance', '0', '--sender', 'HOOKS');
    // one lot's rate moves by a fifth from one run to the next on MariaDB: the median of at least three
    const lots = [];
    for (let lot = 0; lot < Math.max(3, rounds); lot++) {
      await quiet();
      const fanOut = await webhookFanOut(oursEnv, fanOutAccount.account_id, Number(args['webhook-events']));
      console.log(`webhook fan-out: ${fanOut.delivered} of ${fanOut.events} events in ${fanOut.seconds} s, ${fanOut.per_second} events/s`);
      lots.push(fanOut);
    }
    result.webhooks = { ...medianLot(lots), lots: lots.map((lot) => lot.per_second) };
  }
  if (!only || only === 'imports-only') {
    const accounts = () => ({
      auth: `Bearer ${runCli(oursEnv, 'account:create', '--name', 'Bench imports', '--balance', '0', '--sender', 'IMPORTS').api_key}`,
      floorAccountId: runCli(oursEnv, 'account:create', '--name', 'Bench import floor', '--balance', '0', '--sender', 'FLOOR').account_id,
    });
    result.imports = await importThroughput(server.url, oursEnv, accounts, Number(args['import-rows']), Math.max(rounds, 3));
    console.log(`CSV import: ${importLine(result.imports)}`);
  }

  if (args.campaign || only === 'campaign-only') {
    const campaignAccount = runCli(oursEnv, 'account:create', '--name', 'Bench campaigns', '--balance', '10000000000', '--sender', 'CAMPAIGN');
    const account = { accountId: campaignAccount.account_id, auth: `Bearer ${campaignAccount.api_key}`, sender: 'CAMPAIGN' };
    const count = Number(args['campaign-recipients']);
    result.campaign = await campaignThroughput(server.url, oursEnv, account, { count, rounds: Math.max(rounds, 3), metricsToken: METRICS_TOKEN });
    console.log(`campaign: ${campaignLine(result.campaign)}`);
  }

  await server.stop();
  if (result.scenarios['send (API key)']) {
    const connections = connectionCounts.at(-1);
    const baselineRequest = baseline.send(baselineToken);
    result.routed_send = await routedSend({ env: oursEnv, port: OURS_PORT, auth: keyAuth, reference, baselineRequest, connections, duration, rounds: Math.max(rounds, 2), metricsToken: METRICS_TOKEN });
    console.log(`OTP send with 50 routes over 3 connectors: ${routedSendLine(result)}`);
  }
  await floor.stop();
  if (!only || only === 'kannel-only') {
    result.kannel = await kannelComparison(oursEnv, {
      port: OURS_PORT,
      duration,
      rounds,
      connections: connectionCounts.at(-1),
      bulkRequests: Number(args['kannel-bulk-requests']),
      startSmsc,
      startService: (env) => startNode('service', [...SERVICE_NODE_FLAGS, 'dist/main.js'], { env, port: OURS_PORT, healthPath: '/health/live' }),
      measure,
      median,
      nextRecipient,
      runCli,
      waitDrained: (url) => outboxDrained(url, METRICS_TOKEN),
    });
  }
  if (!only || only === 'handover-only') {
    // the service stopped above would take the lots' messages too, handing them to the log
    const handOver = { port: OURS_PORT, messages: Number(args['handover-messages']), window: 10, rounds: Math.max(rounds, 3) };
    result.hand_over = await smscHandOver(oursEnv, handOver);
    console.log(`hand-over to a local SMSC: ${handOverLine(result.hand_over)}`);
    console.log(`hand-over through the router to three local SMSCs: ${routedHandOverLine(result.hand_over)}`);
  }
  hooks.close();
  await reference.stop();
  if (db === 'mysql') mariadb('stop', MARIADB);
  rmSync(work, { recursive: true, force: true });
  return result;
}

/**
 * Send and verify at 50 connections on the database as the warm-up left it, then again after the fill, each
 * round interleaved with the baseline (whose database stays small): the baseline's drift between the two
 * phases is the machine's, which the normalised change takes out.
 */
async function fillComparison({ server, reference, oursEnv, account, run, warmUp, scenarios, references, result }) {
  const measured = scenarios.filter((scenario) => scenario.name === 'send (API key)' || scenario.name === 'verify (right code)');
  await warmUp(measured);
  const table = { empty: {}, filled: {}, baseline: { empty: {}, filled: {} } };
  const measurePhase = async (phase) => {
    for (let round = 0; round < rounds; round++) {
      for (const scenario of measured) {
        await run(server, table[phase], scenario.name, `${scenario.name} 50`, scenario.run, 50);
        await run(reference, table.baseline[phase], scenario.against, `baseline ${scenario.against} 50`, references[scenario.against], 50);
      }
    }
  };
  await measurePhase('empty');
  const started = Date.now();
  const rows = await fill(oursEnv, account.account_id, 1_000_000);
  console.log(`filled ${rows.otps} OTPs and ${rows.messages} messages in ${Math.round((Date.now() - started) / 1000)} s`);
  // as a service that has been running on these tables would be: its caches hold what the new rows need
  await warmUp(measured);
  await measurePhase('filled');
  result.scenarios = table.filled;
  result.baseline = table.baseline.filled;
  return table;
}

function handOverLine(handOver) {
  const each = handOver.lots.map((lot) => lot.per_second).join(', ');
  return (
    `${handOver.per_second} messages/s at window ${handOver.window} (median of ${handOver.rounds} lots of ${handOver.messages}: ${each}); ` +
    `an OTP sent mid-lot reached the SMSC within ${handOver.otp_ms_max} ms`
  );
}

function routedHandOverLine(handOver) {
  return `${handOverLine(handOver.routed)}; ${handOver.routed_ratio}× the single connector, lots in turn`;
}

/** The OTP send's ratio to the baseline under 50 routes, beside its ratio without a routing file in the same run. */
function routedSendLine(result) {
  const routed = result.routed_send;
  const plain = result.scenarios['send (API key)']?.[routed.connections];
  const plainBaseline = result.baseline.send?.[routed.connections];
  const plainRatio = plain && plainBaseline ? (summarise(plain).rps / summarise(plainBaseline).rps).toFixed(2) : '—';
  return `${routed.rps} req/s at c=${routed.connections}, ratio ${routed.ratio} to the baseline (${routed.baseline_rps} req/s); without a routing file ${plainRatio}`;
}

function importLine(imports) {
  return (
    `${imports.rows} rows (${(imports.bytes / 2 ** 20).toFixed(1)} MiB) in ${imports.seconds} s, ${imports.per_second} rows/s; ` +
    `plain INSERT ${imports.floor_per_second} rows/s; ratio ${imports.ratio} (medians of ${imports.rounds} rounds; the first import, cold, ${imports.cold_seconds} s)`
  );
}

function campaignLine(campaign) {
  return (
    `${campaign.recipients} recipients accepted in ${campaign.launch_seconds} s; materialised in ${campaign.seconds} s, ${campaign.per_second} messages/s; ` +
    `plain INSERT ${campaign.floor_per_second} messages/s alone, ratio ${campaign.ratio}; ${campaign.beside_hand_over.floor_per_second} messages/s ` +
    `beside their hand-over, ratio ${campaign.beside_hand_over.ratio} (medians of ${campaign.rounds} rounds)`
  );
}

async function recreateDatabases(mysql, names) {
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({ host: mysql.host, port: Number(mysql.port), user: mysql.user, password: mysql.password });
  for (const name of names) {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  }
  await connection.end();
}
