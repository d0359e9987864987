// The table `npm run bench` prints: each route's figures, and its ratio to the baseline (medians of the rounds).

const median = (values) => {
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
  if (result.fill) {
    console.log('\nwith 1,000,000 OTPs and 1,000,000 messages (c=50):');
    for (const [name, runs] of Object.entries(result.fill.empty)) {
      const empty = summarise(runs[50]);
      const filled = summarise(result.fill.filled[name][50]);
      console.log(`${name.padEnd(22)} empty ${empty.rps} req/s, filled ${filled.rps} req/s (${((filled.rps / empty.rps - 1) * 100).toFixed(1)} %)`);
    }
  }
}
