// The table `npm run bench` prints: each route's figures, and its ratio to the baseline (medians of the rounds).

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Of lots measured in messages or events per second, the median one (its own figures, not a mean of two). */
export const medianLot = (lots) => [...lots].sort((a, b) => a.per_second - b.per_second)[Math.floor(lots.length / 2)];

export function summarise(runs) {
  return {
    rps: Math.round(median(runs.map((run) => run.rps))),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    rss_mb: Math.max(...runs.map((run) => run.rss_mb)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  };
}

export function printTable(db, result) {
  console.log(`\n${db}: req/s, p50/p99 ms, peak RSS; ratio = ours ÷ baseline (req/s; p99 as baseline ÷ ours)`);
  console.log(['route'.padEnd(22), 'c'.padStart(3), 'req/s'.padStart(7), 'p50'.padStart(6), 'p99'.padStart(6), 'RSS MB'.padStart(7), 'baseline'.padStart(9), 'ratio'.padStart(6), 'p99 ratio'.padStart(10)].join(' '));
  for (const [name, byConnections] of Object.entries(result.scenarios)) {
    for (const [connections, runs] of Object.entries(byConnections)) {
      if (!Array.isArray(runs)) continue;
      const ours = summarise(runs);
      const reference = byConnections.against && result.baseline[byConnections.against]?.[connections];
      const base = reference ? summarise(reference) : null;
      console.log(
        [
          name.padEnd(22),
          String(connections).padStart(3),
          String(ours.rps).padStart(7),
          String(ours.p50).padStart(6),
          String(ours.p99).padStart(6),
          String(ours.rss_mb).padStart(7),
          (base ? String(base.rps) : '—').padStart(9),
          (base ? (ours.rps / base.rps).toFixed(2) : '—').padStart(6),
          (base ? (base.p99 / Math.max(ours.p99, 1)).toFixed(2) : '—').padStart(10),
        ].join(' ') + (ours.non2xx ? `  (${ours.non2xx} non-2xx)` : ''),
      );
    }
  }
  printBulkSends(result.scenarios, result.send_floor);
  if (result.fill) printFill(result);
}

/**
 * POST /sms/send to one number beside the OTP send (both handed over as they come), and accepted recipients per
 * second at 1,000 per request beside one per request (both scheduled a day ahead) and beside the floor: the same rows
 * written by the bench itself.
 */
function printBulkSends(scenarios, floor) {
  for (const [connections, runs] of Object.entries(scenarios[SMS_SEND.one] ?? {})) {
    if (!Array.isArray(runs)) continue;
    const single = summarise(runs).rps;
    const otp = scenarios['send (API key)']?.[connections];
    if (otp) console.log(`POST /sms/send c=${connections}: one recipient ${single} req/s, ${(single / summarise(otp).rps).toFixed(2)}× the OTP send`);
  }
  for (const [connections, runs] of Object.entries(scenarios[SMS_SEND.oneWebhook] ?? {})) {
    const plain = scenarios[SMS_SEND.one]?.[connections];
    if (!Array.isArray(runs) || !plain) continue;
    const hooked = summarise(runs).rps;
    console.log(`POST /sms/send c=${connections}, every message with a webhook_url: ${hooked} req/s, ${(hooked / summarise(plain).rps).toFixed(2)}× without`);
  }
  for (const [connections, runs] of Object.entries(scenarios[SMS_SEND.oneLater] ?? {})) {
    const bulk = scenarios[SMS_SEND.manyLater]?.[connections];
    if (!Array.isArray(runs) || !bulk) continue;
    const single = summarise(runs).rps;
    const recipients = Math.round(median(bulk.map((run) => run.per_second)) * SMS_SEND.many);
    const floorLine = floor ? `; the same rows written plainly ${floor.per_second}/s, ${(floor.per_second / single).toFixed(1)}× one per request` : '';
    console.log(`POST /sms/send c=${connections}, scheduled: 1,000 per request ${recipients} recipients/s, ${(recipients / single).toFixed(1)}× one per request (${single}/s)${floorLine}`);
  }
}

export const SMS_SEND = { one: 'sms send (1)', oneWebhook: 'sms send (1, webhook)', oneLater: 'sms send (1, later)', manyLater: 'sms send (1,000, later)', many: 1000 };

/** Each route's change from the small database to the filled one, as measured and relative to the baseline's drift. */
function printFill(result) {
  console.log('\nwith 1,000,000 OTPs and 1,000,000 messages (c=50, medians; normalised = the change of the ratio to the baseline):');
  const change = (before, after) => `${after >= before ? '+' : ''}${((after / before - 1) * 100).toFixed(1)} %`;
  for (const [name, byConnections] of Object.entries(result.fill.empty)) {
    const empty = summarise(byConnections[50]).rps;
    const filled = summarise(result.fill.filled[name][50]).rps;
    const against = result.scenarios[name]?.against;
    const baseEmpty = summarise(result.fill.baseline.empty[against][50]).rps;
    const baseFilled = summarise(result.fill.baseline.filled[against][50]).rps;
    console.log(
      `${name.padEnd(22)} empty ${empty} req/s, filled ${filled} req/s (${change(empty, filled)}); ` +
        `baseline ${baseEmpty} → ${baseFilled}; normalised ${change(empty / baseEmpty, filled / baseFilled)}`,
    );
  }
}

/**
 * One row per figure of the targets, at `connections` (medians of the rounds): `{db, route, ours, floor, ratio, target,
 * p99_ms, floor_p99_ms}`. The floor of the OTP send and of the verification is bench/floor; of a 1,000-recipient send,
 * the same rows written by the bench (lib/send-floor.mjs); some figures are read against another of ours or Kannel,
 * and two are reported against the figures the previous release reached. Null where a part was not run.
 */
export function targetRows(db, result, connections) {
  const at = (table, name) => {
    const runs = table?.[name]?.[connections];
    return Array.isArray(runs) && runs.length > 0 ? summarise(runs) : null;
  };
  const row = (route, target, ours, floor, p99 = null, floorP99 = null) => ({
    db,
    route,
    ours: ours ?? null,
    floor: floor ?? null,
    ratio: ours != null && floor ? Number((ours / floor).toFixed(2)) : null,
    target,
    p99_ms: p99,
    floor_p99_ms: floorP99,
  });
  const send = at(result.scenarios, 'send (API key)');
  const verify = at(result.scenarios, 'verify (right code)');
  const floorSend = at(result.floor, 'send');
  const floorVerify = at(result.floor, 'verify');
  const baseSend = at(result.baseline, 'send');
  const baseVerify = at(result.baseline, 'verify');
  const one = at(result.scenarios, SMS_SEND.one);
  const hooked = at(result.scenarios, SMS_SEND.oneWebhook);
  const bulkRuns = result.scenarios?.[SMS_SEND.manyLater]?.[connections];
  const bulk = Array.isArray(bulkRuns) ? Math.round(median(bulkRuns.map((run) => run.per_second)) * SMS_SEND.many) : null;
  const kannel = result.kannel;
  return [
    row('POST /otp/send ÷ its floor (req/s)', '≥ 0.85', send?.rps, floorSend?.rps, send?.p99, floorSend?.p99),
    row('POST /otp/verify ÷ its floor (req/s)', '≥ 0.9', verify?.rps, floorVerify?.rps, verify?.p99, floorVerify?.p99),
    row('POST /otp/send ÷ the raw baseline (req/s)', 'reported', send?.rps, baseSend?.rps, send?.p99, baseSend?.p99),
    row('POST /otp/verify ÷ the raw baseline (req/s)', 'reported', verify?.rps, baseVerify?.rps, verify?.p99, baseVerify?.p99),
    row('1,000 recipients a request ÷ its floor (recipients/s)', '≥ 0.8', bulk, result.send_floor?.per_second),
    row('POST /sms/send, one recipient ÷ the OTP send (req/s)', '≥ 0.9', one?.rps, send?.rps, one?.p99, send?.p99),
    row('every message with a webhook_url ÷ without (req/s)', '≥ 0.88', hooked?.rps, one?.rps, hooked?.p99, one?.p99),
    row('one SMS a request, receipts asked ÷ Kannel sendsms (req/s)', '≥ 1.0', kannel?.one.ours.rps, kannel?.one.kannel.rps, kannel?.one.ours.p99, kannel?.one.kannel.p99),
    row('1,000 a request, receipts asked ÷ Kannel sendsms (recipients/s)', '≥ 3', kannel?.many.ours, kannel?.many.kannel),
    row('hand-over to a local SMSC (messages/s)', '≥ 5,851', result.hand_over?.per_second, null),
    row('webhook fan-out (events/s)', '≥ 4,399', result.webhooks?.per_second, null),
  ];
}

/** The table of the targets: route, ours, floor, ratio (and the target), p99 beside the floor's p99. */
export function printFloorTable(rows) {
  const cell = (value) => (value == null ? '—' : typeof value === 'number' ? value.toLocaleString('en') : String(value));
  const columns = [
    ['db', 7, (row) => row.db],
    ['route', 64, (row) => row.route],
    ['ours', 9, (row) => row.ours],
    ['floor', 9, (row) => row.floor],
    ['ratio', 6, (row) => row.ratio],
    ['target', 9, (row) => row.target],
    ['p99 ms', 7, (row) => row.p99_ms],
    ['floor p99', 9, (row) => row.floor_p99_ms],
  ];
  console.log('\nroute, ours, floor, ratio (medians of the rounds; the floor column holds what each figure is read against)');
  console.log(columns.map(([name, width], index) => (index < 2 ? name.padEnd(width) : name.padStart(width))).join(' '));
  for (const row of rows) {
    console.log(columns.map(([, width, read], index) => (index < 2 ? cell(read(row)).padEnd(width) : cell(read(row)).padStart(width))).join(' '));
  }
}
