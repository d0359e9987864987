// npm run bench -- --db galera: send and verify through three instances, one per node of a three-node Galera cluster
// (../shared/scripts/galera-local.sh; started with GALERA_FAST=1 unless it runs already), against the same through one
// instance on a single MariaDB (mariadb-local.sh with MARIADB_FAST=1, the same durability); the ratio of the two, and
// the units of work retried after a lost certification (db_transaction_retries_total on each instance's /metrics).
// Each instance serves an account of its own, as clients spread over instances do; the verifications check codes sent
// through another instance. (Sends of one account through several nodes all write its balance row: they conflict at
// every commit, which is the worst case, not the common one.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { harvest, measure, nextRecipient, ours } from './load.mjs';
import { mariadb, runCli, SERVICE_NODE_FLAGS, SHARED, startNode } from './processes.mjs';

const GALERA_SCRIPT = join(SHARED, 'scripts', 'galera-local.sh');
const SCENARIOS = ['send', 'verify'];

function galera(command, env = {}) {
  const result = spawnSync('bash', [GALERA_SCRIPT, command], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

const exportsOf = (text) => Object.fromEntries([...text.matchAll(/^export (\w+)=(.*)$/gm)].map(([, name, value]) => [name, value]));

async function recreateDatabase({ host, port, user, password }, name) {
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({ host, port: Number(port), user, password });
  await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
}

/** The sum of db_transaction_retries_total over the instances. */
async function retries(urls, token) {
  let total = 0;
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    total += Number(/^db_transaction_retries_total (\d+)$/m.exec(text)?.[1] ?? 0);
  }
  return total;
}

/** The load at `connections` shared out over the instances, run at once: req/s summed, p50 and p99 the worst instance's. */
async function measureSpread(urls, requestFor, connections, duration) {
  const parts = await Promise.all(
    urls.map((url, i) => measure(url, [requestFor(i)], { connections: Math.max(1, Math.round(connections / urls.length)), duration })),
  );
  return {
    rps: parts.reduce((sum, part) => sum + part.rps, 0),
    p50: Math.max(...parts.map((part) => part.p50)),
    p99: Math.max(...parts.map((part) => part.p99)),
    total: parts.reduce((sum, part) => sum + part.total, 0),
    non2xx: parts.reduce((sum, part) => sum + part.non2xx, 0),
  };
}

/** Sends whose answers are kept with their recipients, for verifications. */
async function codes(url, auth, amount) {
  const request = {
    ...ours.send(auth),
    setupRequest: (req, context) => {
      context.to = nextRecipient();
      return { ...req, body: JSON.stringify({ channel: 'SMS', to: context.to, message: 'Votre code est ##OTP##.' }) };
    },
  };
  return harvest(url, request, amount, (data, context) => ({ to: context.to, code: data.code }));
}

/** Send and verify through `urls` (the instances of one setup, each with the account of `auths`), `rounds` times each. */
async function benchSetup(name, urls, auths, token, { connections, duration, warmup, rounds }) {
  await measureSpread(urls, (i) => ours.send(auths[i]), connections, warmup);
  const figures = { send: [], verify: [] };
  let sendRate = 1000;
  for (let round = 0; round < rounds; round++) {
    for (const scenario of SCENARIOS) {
      let requestFor = (i) => ours.send(auths[i]);
      if (scenario === 'verify') {
        // enough right codes for the run, each verified once, through another instance than the one that sent it
        const wanted = Math.ceil((Math.max(sendRate, 1000) * duration * 2) / urls.length) + 300;
        const pairs = await Promise.all(urls.map((url, i) => codes(url, auths[i], wanted)));
        requestFor = (i) => {
          const sender = (i + 1) % urls.length;
          return ours.verify(auths[sender], pairs[sender]);
        };
      }
      const before = await retries(urls, token);
      const result = await measureSpread(urls, requestFor, connections, duration);
      result.retried = (await retries(urls, token)) - before;
      result.retried_per_1000 = result.total === 0 ? 0 : Math.round((result.retried / result.total) * 10000) / 10;
      if (scenario === 'send') sendRate = result.rps;
      figures[scenario].push(result);
      console.log(
        `${name.padEnd(8)} ${scenario.padEnd(6)} c=${connections} ${result.rps} req/s p50 ${result.p50} ms p99 ${result.p99} ms, ` +
          `${result.retried} units retried (${result.retried_per_1000} per 1,000 requests)${result.non2xx ? `, non-2xx ${result.non2xx}` : ''}`,
      );
    }
  }
  return figures;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function galeraComparison({ port, mariadbPort, secret, metricsToken, connections, duration, warmup, rounds }) {
  const common = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    JWT_SECRET: secret,
    OTP_SECRET: secret,
    RATE_LIMIT_PER_MINUTE: '1000000000',
    METRICS_TOKEN: metricsToken,
    DATA_DIR: `/tmp/bench-galera-${process.pid}`,
  };
  const options = { connections, duration, warmup, rounds };
  const start = (env, at) =>
    startNode(`service ${at}`, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      env: { ...env, PORT: String(at), PUBLIC_URL: `http://127.0.0.1:${at}` },
      port: at,
      healthPath: '/health/live',
    });
  const result = { connections, single: null, galera: null };

  const single = { MARIADB_PORT: String(mariadbPort), MARIADB_DATADIR: `/tmp/bench-mariadb-${mariadbPort}`, MARIADB_FAST: '1' };
  mariadb('start', single);
  try {
    const settings = exportsOf(mariadb('env', single));
    await recreateDatabase(
      { host: settings.DB_HOST, port: settings.DB_PORT, user: settings.DB_USER, password: settings.DB_PASSWORD },
      'app_bench_single',
    );
    const env = {
      ...common,
      DB_TYPE: 'mysql',
      DB_HOST: settings.DB_HOST,
      DB_PORT: settings.DB_PORT,
      DB_USER: settings.DB_USER,
      DB_PASSWORD: settings.DB_PASSWORD,
      DB_NAME: 'app_bench_single',
      DB_HOSTS: '',
    };
    const account = runCli(env, 'account:create', '--name', 'Bench single', '--balance', '10000000000', '--sender', 'BENCH');
    const server = await start(env, port);
    result.single = await benchSetup('single', [server.url], [`Bearer ${account.api_key}`], metricsToken, options);
    await server.stop();
  } finally {
    mariadb('stop', single);
  }

  const wasRunning = galera('status').ok;
  if (!wasRunning && !galera('start', { GALERA_FAST: process.env.GALERA_FAST ?? '1' }).ok) throw new Error('the Galera cluster did not start');
  try {
    const settings = exportsOf(galera('env').stdout);
    const hosts = settings.DB_HOSTS.split(',');
    await recreateDatabase(
      { host: settings.DB_HOST, port: settings.DB_PORT, user: settings.DB_USER, password: settings.DB_PASSWORD },
      'app_bench_galera',
    );
    const env = {
      ...common,
      DB_TYPE: 'mysql',
      DB_USER: settings.DB_USER,
      DB_PASSWORD: settings.DB_PASSWORD,
      DB_NAME: 'app_bench_galera',
      DB_HOSTS: settings.DB_HOSTS,
    };
    const auths = hosts.map(
      (_, i) => `Bearer ${runCli(env, 'account:create', '--name', `Bench Galera ${i}`, '--balance', '10000000000', '--sender', 'BENCH').api_key}`,
    );
    const servers = [];
    // instance i prefers node i
    for (let i = 0; i < hosts.length; i++)
      servers.push(await start({ ...env, DB_HOSTS: [...hosts.slice(i), ...hosts.slice(0, i)].join(',') }, port + 1 + i));
    result.galera = await benchSetup(
      'galera',
      servers.map((server) => server.url),
      auths,
      metricsToken,
      options,
    );
    for (const server of servers) await server.stop();
    await recreateDatabase(
      { host: settings.DB_HOST, port: settings.DB_PORT, user: settings.DB_USER, password: settings.DB_PASSWORD },
      'app_bench_galera',
    );
  } finally {
    if (!wasRunning) galera('stop');
  }

  result.summary = Object.fromEntries(
    SCENARIOS.map((scenario) => {
      const singleRps = median(result.single[scenario].map((run) => run.rps));
      const galeraRps = median(result.galera[scenario].map((run) => run.rps));
      return [
        scenario,
        {
          single_rps: singleRps,
          galera_rps: galeraRps,
          ratio: Math.round((galeraRps / singleRps) * 100) / 100,
          retried_per_1000: median(result.galera[scenario].map((run) => run.retried_per_1000)),
        },
      ];
    }),
  );
  return result;
}

export function galeraLines(result) {
  return Object.entries(result.summary).map(
    ([scenario, figures]) =>
      `${scenario} at ${result.connections} connections: three instances on Galera ${figures.galera_rps} req/s, one on a single MariaDB ${figures.single_rps} req/s, ` +
      `ratio ${figures.ratio}; units retried after a lost certification: ${figures.retried_per_1000} per 1,000 requests`,
  );
}
