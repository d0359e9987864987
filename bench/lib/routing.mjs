// Routing in the bench: the files the routed runs use, and the OTP send under a routing table of 50 routes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, outboxDrained, ours } from './load.mjs';
import { SERVICE_NODE_FLAGS, startNode } from './processes.mjs';
import { median } from './report.mjs';

const ROUTES = 50;

/** A routing file in a directory of its own: connectors c1… for `urls`, and one route taking turns over them. */
export function routingFileOf(urls) {
  return write({
    connectors: urls.map((url, n) => ({ id: `c${n + 1}`, url })),
    routes: [{ name: 'all', strategy: 'round_robin', targets: urls.map((_, n) => ({ connector: `c${n + 1}` })) }],
  });
}

/**
 * 50 routes over three connectors writing to the log: 49 by prefix, account or traffic that the bench's sends to
 * Côte d'Ivoire mobiles (+22507…) go past, each strategy among them, then the catch-all the sends take.
 */
export function fiftyRoutes() {
  const connectors = ['a', 'b', 'c'].map((id) => ({ id, url: 'log:' }));
  const targets = [{ connector: 'a', cost: 0.03 }, { connector: 'b', cost: 0.02, weight: 2 }, { connector: 'c', cost: 0.01 }];
  const strategies = ['failover', 'round_robin', 'least_cost'];
  const routes = Array.from({ length: ROUTES - 1 }, (_, n) => ({
    name: `route-${n}`,
    match: n % 7 === 6 ? { prefixes: ['+22507'], traffic: 'bulk' } : { prefixes: [`+${221 + (n % 30)}${n}`, `+${300 + n}`] },
    strategy: strategies[n % 3],
    targets,
  }));
  routes.push({ name: 'rest', strategy: 'least_cost', targets });
  return write({ connectors, routes });
}

/**
 * The OTP send under `fiftyRoutes()` against the baseline, interleaved, `rounds` times at `connections`: the service
 * started on `port` with the file, the same way the main runs start it. The ratio is read against the send's ratio
 * without a routing file in the same run.
 */
export async function routedSend({ env, port, auth, reference, baselineRequest, connections, duration, rounds, metricsToken }) {
  const service = await startNode('routed', [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    env: { ...env, PORT: String(port), SMS_ROUTING_FILE: fiftyRoutes() },
    port,
    healthPath: '/health/live',
  });
  const runs = [];
  const baselineRuns = [];
  try {
    await measure(service.url, [ours.send(auth)], { connections, duration: Math.max(2, Math.round(duration / 2)) });
    for (let round = 0; round < rounds; round++) {
      await outboxDrained(service.url, metricsToken);
      runs.push(await measure(service.url, [ours.send(auth)], { connections, duration }));
      baselineRuns.push(await measure(reference.url, [baselineRequest], { connections, duration }));
      console.log(`routed   send (50 routes)        c=${connections} ${runs.at(-1).rps} req/s; baseline ${baselineRuns.at(-1).rps} req/s`);
    }
  } finally {
    await service.stop();
  }
  const rps = median(runs.map((run) => run.rps));
  const baselineRps = median(baselineRuns.map((run) => run.rps));
  return { routes: ROUTES, connectors: 3, connections, rps, baseline_rps: baselineRps, ratio: Number((rps / baselineRps).toFixed(2)), runs, baseline: baselineRuns };
}

function write(content) {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-routing-')), 'routes.json');
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
}
