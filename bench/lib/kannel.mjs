// Kannel (Debian's `kannel` package) as a peer in the bench: bearerbox with a file store and an SMPP connector to the
// bench's SMSC (a window of 10, as the service's SMPP_WINDOW), smsbox with its sendsms interface, every message asking
// for final receipts (dlr-mask 3: delivered or failed, as the service asks for them) to be called back at a local
// dlr-url. Found on the PATH or in /usr/sbin, else installed with apt-get where the bench runs as root.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const SBIN = ['/usr/sbin', '/usr/local/sbin', '/usr/bin'];
export const KANNEL_USER = { username: 'bench', password: 'bench' };
/** Final receipts: delivered (1) or failed (2). */
export const DLR_MASK = 3;

const findBox = (name) => {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return onPath || SBIN.map((dir) => join(dir, name)).find((path) => existsSync(path)) || null;
};

/** bearerbox and smsbox, installed first if they are missing and apt-get can; null (with the reason printed) otherwise. */
export function kannelBoxes() {
  let boxes = { bearerbox: findBox('bearerbox'), smsbox: findBox('smsbox') };
  if (!boxes.bearerbox || !boxes.smsbox) {
    if (process.getuid?.() === 0 && findBox('apt-get')) {
      console.log('kannel is not installed: installing Debian\'s kannel package (apt-get install kannel)');
      const installed = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kannel'], { stdio: 'inherit' });
      if (installed.status === 0) boxes = { bearerbox: findBox('bearerbox'), smsbox: findBox('smsbox') };
    }
  }
  if (boxes.bearerbox && boxes.smsbox) return boxes;
  console.log('KANNEL IS MISSING: bearerbox and smsbox were not found and could not be installed (apt-get install kannel); the Kannel rows are left empty');
  return null;
}

/**
 * Starts bearerbox and smsbox bound to the SMSC at `smscPort`, and a receiver of their receipts in this process.
 * Resolves once the SMSC connection is online and sendsms answers.
 */
export async function startKannel(boxes, { smscPort, workDir, ports }) {
  mkdirSync(workDir, { recursive: true });
  const dlrs = { count: 0 };
  const receiver = createServer((request, response) => {
    dlrs.count++;
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const config = join(workDir, 'kannel.conf');
  writeFileSync(
    config,
    `group = core
admin-port = ${ports.admin}
admin-password = bench
admin-allow-ip = "127.0.0.1"
smsbox-port = ${ports.smsbox}
box-allow-ip = "127.0.0.1"
log-file = "${join(workDir, 'bearerbox.log')}"
log-level = 4
store-type = file
store-location = "${join(workDir, 'kannel.store')}"
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = bench
host = 127.0.0.1
port = ${smscPort}
transceiver-mode = true
smsc-username = bench
smsc-password = bench
system-type = ""
max-pending-submits = 10
msg-id-type = 0x00
log-level = 4

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${ports.smsbox}
sendsms-port = ${ports.sendsms}
log-file = "${join(workDir, 'smsbox.log')}"
log-level = 4

group = sendsms-user
username = ${KANNEL_USER.username}
password = ${KANNEL_USER.password}
max-messages = 1
`,
  );
  const status = `http://127.0.0.1:${ports.admin}/status.txt?password=bench`;
  const statusText = () => fetch(status).then((response) => response.text(), () => '');
  const children = [spawn(boxes.bearerbox, [config], { stdio: 'ignore' })];
  const stopChildren = async () => {
    for (const child of [...children].reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve)));
    }
  };
  let smsbox = null;
  for (let i = 0; ; i++) {
    const text = await statusText();
    // smsbox is started once bearerbox listens, and again if it gave up before bearerbox took it
    if (text && (!smsbox || smsbox.exitCode !== null)) children.push((smsbox = spawn(boxes.smsbox, [config], { stdio: 'ignore' })));
    const sendsms = smsbox && (await fetch(`http://127.0.0.1:${ports.sendsms}/cgi-bin/sendsms`).then(() => true, () => false));
    if (/online/.test(text) && /smsbox:/.test(text) && sendsms) break;
    if (i > 600 || children[0].exitCode !== null) {
      await stopChildren();
      receiver.close();
      throw new Error(`kannel did not come online (see ${workDir}):\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    sendsms: `http://127.0.0.1:${ports.sendsms}`,
    dlrUrl: `http://127.0.0.1:${receiver.address().port}/dlr?id=%I&status=%d`,
    receipts: () => dlrs.count,
    stop: async () => {
      await stopChildren();
      receiver.closeAllConnections();
      receiver.close();
    },
  };
}

/** An autocannon request of Kannel's sendsms to `recipients` new numbers (separated by spaces) each time, asking for receipts. */
export function sendsmsRequest(kannel, recipients, nextRecipient, text) {
  const fixed = new URLSearchParams({ ...KANNEL_USER, from: 'BENCH', text, 'dlr-mask': String(DLR_MASK), 'dlr-url': kannel.dlrUrl }).toString();
  return {
    method: 'GET',
    path: '/cgi-bin/sendsms',
    setupRequest: (request) => {
      const to = Array.from({ length: recipients }, nextRecipient).join(' ');
      return { ...request, path: `/cgi-bin/sendsms?${fixed}&to=${encodeURIComponent(to)}` };
    },
  };
}

/**
 * POST /v1/sms/send beside Kannel's sendsms, both asking for receipts from the same SMSC (which sends one for every
 * submit that asks), in turn, `rounds` times: one recipient a request at `connections` for `duration` s (requests
 * accepted per second), then 1,000 recipients a request, `bulkRequests` of them at 10 connections (recipients
 * accepted per second). The service is started with SMS_PROVIDER=smpp on `port` and hands its messages over while it
 * is measured; Kannel is started afresh (an empty store) for each of its runs and stopped after it, so that neither
 * hands over while the other is measured. The medians.
 */
export async function kannelComparison(env, { port, duration, rounds, connections, bulkRequests, startSmsc, startService, measure, median, nextRecipient, runCli, waitDrained }) {
  const boxes = kannelBoxes();
  if (!boxes) return null;
  const smsc = await startSmsc({ receipts: true });
  const service = await startService({ ...env, PORT: String(port), SMS_PROVIDER: 'smpp', SMPP_URL: `smpp://bench:bench@127.0.0.1:${smsc.port}`, SMPP_WINDOW: '10' });
  const kannelPorts = { admin: port + 10, smsbox: port + 11, sendsms: port + 12 };
  const workDir = join(env.DATA_DIR, 'kannel');
  const text = 'Votre commande est prête. Merci de votre confiance.';
  const figures = { ours_one: [], kannel_one: [], ours_many: [], kannel_many: [] };
  try {
    const account = runCli(env, 'account:create', '--name', 'Bench Kannel', '--balance', '10000000000', '--sender', 'BENCH');
    const ours = (recipients) => ({
      method: 'POST',
      path: '/v1/sms/send',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.api_key}` },
      setupRequest: (request) => {
        const to = Array.from({ length: recipients }, nextRecipient);
        return { ...request, body: JSON.stringify({ to: recipients === 1 ? to[0] : to, message: text }) };
      },
    });
    const withKannel = async (run) => {
      const kannel = await startKannel(boxes, { smscPort: smsc.port, workDir, ports: kannelPorts });
      try {
        return await run(kannel);
      } finally {
        await kannel.stop();
        rmSync(workDir, { recursive: true, force: true });
      }
    };
    const bulkRate = async (url, request) => {
      const run = await measure(url, [request], { connections: 10, amount: bulkRequests });
      return Math.round((run.total * 1000) / run.seconds);
    };
    for (let round = 0; round < rounds; round++) {
      await waitDrained(service.url);
      figures.ours_one.push(await measure(service.url, [ours(1)], { connections, duration }));
      figures.kannel_one.push(await withKannel((kannel) => measure(kannel.sendsms, [sendsmsRequest(kannel, 1, nextRecipient, text)], { connections, duration })));
      await waitDrained(service.url);
      figures.ours_many.push(await bulkRate(service.url, ours(1000)));
      figures.kannel_many.push(await withKannel((kannel) => bulkRate(kannel.sendsms, sendsmsRequest(kannel, 1000, nextRecipient, text))));
      const last = (list) => list.at(-1);
      console.log(
        `kannel round ${round + 1}: one a request ours ${last(figures.ours_one).rps} req/s (p99 ${last(figures.ours_one).p99} ms), kannel ${last(figures.kannel_one).rps} req/s (p99 ${last(figures.kannel_one).p99} ms); ` +
          `1,000 a request ours ${last(figures.ours_many)} recipients/s, kannel ${last(figures.kannel_many)}`,
      );
    }
    const summary = (runs) => ({ rps: median(runs.map((run) => run.rps)), p99: median(runs.map((run) => run.p99)) });
    return {
      rounds,
      one: { ours: summary(figures.ours_one), kannel: summary(figures.kannel_one) },
      many: { ours: median(figures.ours_many), kannel: median(figures.kannel_many), requests: bulkRequests },
      runs: figures,
    };
  } finally {
    await service.stop();
    await smsc.stop();
  }
}
