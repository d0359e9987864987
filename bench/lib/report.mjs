// The table `npm run bench` prints: each route's figures, and its ratio to the baseline (medians of the rounds).

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

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
