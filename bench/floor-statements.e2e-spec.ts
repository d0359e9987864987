import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkedFetch } from '../test/support/openapi-answers.js';
import { freePort, runCli, startServer, type ServerProcess } from '../test/support/processes.js';
import { queryServerDatabase } from '../test/support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database.js';
import { waitFor } from '../test/support/until.js';

const SECRET = 'floor-statements-secret-0123456789abcdef';
/** Preloaded into both processes: notes every statement each sends to its database (see the file). */
const TRACE = join(process.cwd(), 'bench', 'floor', 'statement-trace.cjs');
const FLOOR = join(process.cwd(), 'bench', 'floor', 'server.mjs');
/** Longer than every poll of the service's background work (job queues every 0.5–10 s, log checkpoints every 0.1 s). */
const IDLE_MS = 10_500;
const RECIPIENTS = 12;
const RESENT = 4;

interface Target {
  base: string;
  trace: string;
  env: Record<string, string>;
  apiKey: string;
  stop(): Promise<unknown>;
}

/**
 * What a process sent to its database while serving the workload, and while idle before and after it (some polls run
 * only once the service holds something, such as the fraud guard's refresh of the settings it has cached): round trips
 * of statements.
 */
interface Statements {
  idle: string[][];
  work: string[][];
}

/**
 * The statements of a line of the trace, as compared: one statement on SQLite, a round trip on MariaDB (its statements
 * joined by `;`), with the values of an `IN (…)` list, the rows of a multi-row insert or a `LIMIT` as one mark.
 */
function statementsOf(line: string): string[] {
  const text = line.split('\t')[2] ?? '';
  return text.split(/;\s*(?=[A-Z])/).map((statement) =>
    statement
      .trim()
      .replace(/IN \((\?, )*\?\)/g, 'IN (?…)')
      .replace(/VALUES (\((?:\?, )*\?\))(?:, \1)+/g, 'VALUES $1…')
      .replace(/LIMIT \d+/g, 'LIMIT ?'),
  );
}

/** The multi-row inserts either side made: a batch of one row is the same statement. */
const multiRow = new Set<string>();
const asBatch = (statement: string): string => (multiRow.has(`${statement}…`) ? `${statement}…` : statement);

/** A round trip as the lists compare it: each run of the same statement once, as the number of messages a hand-over settles varies. */
const roundTrip = (statements: string[]): string => {
  const batched = statements.map(asBatch);
  return batched.filter((statement, index) => statement !== batched[index - 1]).join('; ');
};

const tablesOf = (statement: string): string[] => [...statement.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+[`"]?([a-z_]+)/gi)].map((match) => match[1]!);
const counts = (statements: string[]) => statements.reduce((map, statement) => map.set(statement, (map.get(statement) ?? 0) + 1), new Map<string, number>());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function traceFrom(file: string, offset: number): { roundTrips: string[][]; end: number } {
  const end = statSync(file).size;
  const buffer = Buffer.alloc(end - offset);
  const fd = openSync(file, 'r');
  readSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
  return { roundTrips: buffer.toString('utf8').split('\n').filter(Boolean).map(statementsOf), end };
}

/**
 * The review rule of the bench's floors: the floor of the OTP send and of the verification (bench/floor) does every
 * statement the service does for them, the hand-over of the messages included, and nothing the service does not. Both
 * run as processes with `statement-trace.cjs` preloaded, on databases migrated alike, and take the same workload:
 * sends (some to a recipient again, which supersedes its code), their hand-over to the log provider, wrong and right
 * codes. What the service does while idle (its job queues' polls, its log checkpoints) is read before and after, and set apart.
 */
describe('the OTP floor against the service, statement by statement', () => {
  const databases: TestDatabase[] = [];
  const targets: Target[] = [];
  let service: Statements;
  let floor: Statements;

  const start = async (which: 'service' | 'floor'): Promise<Target> => {
    const database = await createTestDatabase();
    databases.push(database);
    const port = await freePort();
    const trace = join(database.env.DATA_DIR!, 'statements.log');
    const env = {
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // the log provider hands over without the receipts it can send after (the floor has none)
      LOG_RECEIPT_DELAY_MS: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: SECRET,
      OTP_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '100000',
      NODE_OPTIONS: `--require ${TRACE}`,
      STATEMENT_TRACE_FILE: trace,
    };
    const created = runCli({ ...env, NODE_OPTIONS: '', STATEMENT_TRACE_FILE: '' }, 'account:create', '--name', which, '--balance', '100000', '--sender', 'BENCH');
    if (created.status !== 0) throw new Error(`account:create failed: ${created.stderr}`);
    const apiKey = String(created.json!.api_key);
    // the floor is the send without the fraud guard's velocity signals, whose own cost the bench reports beside it
    await queryServerDatabase(env, "INSERT INTO fraud_policy (account_id, sandbox, policy, version, changed_at) VALUES (?, 0, ?, 1, '2026-01-01 00:00:00.000')", [
      String(created.json!.account_id),
      JSON.stringify({ modes: { velocity: 'off' } }),
    ]);
    const base = `http://127.0.0.1:${port}`;
    if (which === 'service') {
      const server: ServerProcess = await startServer(env);
      if (!server.stdout().includes('Serving on')) throw new Error(`the service did not start: ${server.stderr()}`);
      return { base, trace, env, apiKey, stop: () => server.stop() };
    }
    const child = spawn(process.execPath, [FLOOR], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes('serving') || child.exitCode !== null, 30_000, 50);
    if (child.exitCode !== null) throw new Error(`the floor did not start: ${output}`);
    return { base, trace, env, apiKey, stop: () => (child.kill('SIGTERM'), new Promise((resolve) => child.once('close', resolve))) };
  };

  /** Idle, the workload, idle again: the statements of each part. */
  const exercise = async (target: Target): Promise<Statements> => {
    await sleep(1_000); // what starting left to do
    const before = statSync(target.trace).size;
    await sleep(IDLE_MS);
    const idle = traceFrom(target.trace, before);

    const post = async (path: string, body: object) => {
      const response = await checkedFetch(`${target.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { data?: { code?: string } } };
    };
    const to = (n: number) => `+2250707${String(100_000 + n)}`;
    const codes = new Map<string, string>();
    const sendAll = async (numbers: number[]) => {
      const answers = await Promise.all(numbers.map((n) => post('/v1/otp/send', { channel: 'SMS', to: to(n), message: 'Votre code est ##OTP##.' })));
      answers.forEach((answer, index) => {
        expect(answer.status).toBe(200);
        codes.set(to(numbers[index]!), answer.body.data!.code!);
      });
    };
    // the first alone: the look-ups it makes are then cached for the others (5 s), which would otherwise make them at once
    await sendAll([0]);
    await sendAll(Array.from({ length: RECIPIENTS - 1 }, (_, n) => n + 1));
    await sendAll(Array.from({ length: RESENT }, (_, n) => n));
    const outbox = async () => Number((await queryServerDatabase(target.env, 'SELECT COUNT(*) AS count FROM outbox'))[0]!.count);
    await waitFor(async () => (await outbox()) === 0, 30_000);

    const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
    const half = [...codes].slice(0, RECIPIENTS / 2);
    expect((await Promise.all(half.map(([number, code]) => post('/v1/otp/verify', { to: number, code: wrong(code) })))).map((answer) => answer.status)).toEqual(
      half.map(() => 400),
    );
    expect((await Promise.all([...codes].map(([number, code]) => post('/v1/otp/verify', { to: number, code })))).map((answer) => answer.status)).toEqual(
      [...codes].map(() => 200),
    );
    await sleep(300);
    const work = traceFrom(target.trace, idle.end);
    await sleep(IDLE_MS);
    return { idle: [...idle.roundTrips, ...traceFrom(target.trace, work.end).roundTrips], work: work.roundTrips };
  };

  beforeAll(async () => {
    targets.push(await start('service'), await start('floor'));
    service = await exercise(targets[0]!);
    floor = await exercise(targets[1]!);
    for (const statement of [...service.work, ...floor.work].flat()) if (statement.endsWith(')…')) multiRow.add(statement);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(targets.map((target) => target.stop()));
    await Promise.all(databases.map((database) => database.drop()));
  }, 60_000);

  /** The round trips the service made for the workload that it does not make idle. */
  const serviceOwn = () => {
    const idle = new Set(service.idle.map(roundTrip));
    return new Set(service.work.map(roundTrip).filter((trip) => !idle.has(trip)));
  };

  it('makes in the floor every round trip the service makes for sends, hand-overs and verifications', () => {
    const inFloor = new Set(floor.work.map(roundTrip));
    expect([...serviceOwn()].filter((trip) => !inFloor.has(trip))).toEqual([]);
  });

  it('makes in the floor no round trip the service does not make for them', () => {
    const floorTrips = new Set(floor.work.map(roundTrip));
    const inService = new Set(service.work.map(roundTrip));
    expect([...floorTrips].filter((trip) => !inService.has(trip))).toEqual([]);
    // of what the idle service does too (its polls), the floor does only what touches the send's own tables
    const sendTables = new Set([...serviceOwn()].flatMap(tablesOf));
    const idle = new Set(service.idle.map(roundTrip));
    expect([...floorTrips].filter((trip) => idle.has(trip) && tablesOf(trip).some((table) => !sendTables.has(table)))).toEqual([]);
  });

  it('runs each statement of a request or of a message as many times as the service does', () => {
    // those of each request and message: not the look-ups cached for seconds (made once or twice), the batches of a claim
    // (its LIMIT, its IN lists, its multi-row inserts, also when a batch has one row), nor the statements of transactions and sessions
    const own = serviceOwn();
    const ours = counts(service.work.filter((trip) => own.has(roundTrip(trip))).flat());
    const batch = (statement: string) => /IN \(\?…\)|LIMIT \?|\)…/.test(statement) || ours.has(`${statement}…`);
    const perItem = [...ours].filter(([statement, count]) => count >= 3 && tablesOf(statement).length > 0 && !batch(statement));
    const theirs = counts(floor.work.flat());
    expect(perItem.map(([statement]) => [statement, theirs.get(statement) ?? 0])).toEqual(perItem);
  });
});
