import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, startServer, type ServerProcess } from './support/processes.js';

const README = join(process.cwd(), 'README.md');
const NOT_RUN = /^<!-- not run: (.+) -->$/;
const ANNOUNCED = /#\s*→\s*(\d{3})\b/g;

interface Block {
  section: string;
  line: number;
  code: string;
  /** Statuses other than 2xx its comments announce (`# → 402`): each must happen, and no other. */
  announced: string[];
  /** Why it is not run, for a block marked `<!-- not run: … -->`. */
  skipped?: string;
}

/** Every `sh` block of the README, with the section it sits in and whether it is marked not to run. */
function shBlocks(readme: string): Block[] {
  const lines = readme.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('## ')) section = lines[i]!.slice(3);
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    const code = lines.slice(i + 1, end).join('\n');
    const skipped = NOT_RUN.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ section, line: i + 1, code, announced: [...new Set([...code.matchAll(ANNOUNCED)].map((m) => m[1]!))], skipped });
    i = end;
  }
  return blocks;
}

/**
 * One bash script that runs the blocks in order, keeping their variables: `curl` answers with a connection error, a
 * 5xx, or a status its block does not announce fail it, and a status a block announces must have come. `npm` runs
 * in the repository, as it would for a reader there, while the blocks' files go to a directory of their own.
 */
function script(blocks: Block[]): string {
  const preamble = String.raw`
set -euo pipefail
command -v jq >/dev/null || { echo 'the README examples need jq (apt-get install jq)' >&2; exit 1; }
statuses=$(mktemp)
curl() {
  local body status
  body=$(mktemp)
  if ! status=$(command curl -sS -o "$body" -w '%{http_code}' "$@"); then
    echo "README line $block: no answer from curl $*" >&2
    return 97
  fi
  cat "$body"
  rm -f "$body"
  echo "$block $status" >> "$statuses"
  case "$status" in 2??) return 0 ;; esac
  case " $announced " in *" $status "*) return 0 ;; esac
  echo "README line $block: HTTP $status, which the block does not announce (# → $status), from curl $*" >&2
  return 98
}
npm() { command npm --prefix "$README_REPO" "$@"; }
`;
  const body = blocks.map((b) => {
    const checks = b.announced.map(
      (status) => `grep -qx "${b.line} ${status}" "$statuses" || { echo "README line ${b.line}: announces ${status}, which did not come" >&2; exit 99; }`,
    );
    return [`block=${b.line} announced="${b.announced.join(' ')}"`, `echo "::: README line ${b.line} (${b.section})"`, b.code, ...checks].join('\n');
  });
  return [preamble, ...body].join('\n\n') + '\n';
}

function runBash(path: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The README runs as written (SPEC-3 §1.14): the service started as the quick start says, with the demo key it
 * prints, and every `sh` block after it in order. Blocks marked `<!-- not run: … -->` are the quick-start commands
 * themselves (this test does what they do) and what needs something outside the service: an SMSC and an SMTP relay,
 * MariaDB, docker or podman, a webhook receiver at a public address.
 */
describe('the README', () => {
  const readme = readFileSync(README, 'utf8');
  const blocks = shBlocks(readme);
  let dataDir: string;
  let workDir: string;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'readme-data-'));
    workDir = mkdtempSync(join(tmpdir(), 'readme-run-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('is at most 700 lines, sets its address once, and says why a block is not run', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(700);
    expect(readme).not.toMatch(/localhost:3000\/v1|localhost:3000\/health/);
    expect(readme.match(/^<!-- not run/gm)?.length).toBe(blocks.filter((b) => b.skipped).length);
    expect(blocks.filter((b) => !b.skipped).length).toBeGreaterThan(20);
  });

  it('runs: every example answers as it says, from a server started as the quick start says', async () => {
    const port = await freePort();
    const env = {
      NODE_ENV: 'development',
      DB_TYPE: 'sqlite',
      DATA_DIR: dataDir,
      DB_PATH: join(dataDir, 'messaging.sqlite'),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'info',
      LOG_RECEIPT_DELAY_MS: '2000',
    };
    server = await startServer(env);
    const key = /^\s+(mk_live_\S+)$/m.exec(server.stdout())?.[1];
    expect(key).toBeDefined();

    const path = join(workDir, 'readme.sh');
    writeFileSync(path, script(blocks.filter((b) => !b.skipped)));
    const run = await runBash(path, workDir, {
      ...env,
      API: `http://localhost:${port}`,
      KEY: key!,
      README_REPO: process.cwd(),
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    });

    if (run.code !== 0) throw new Error(`the README stopped (exit ${run.code}):\n${run.output.split('\n').slice(-40).join('\n')}`);
    expect(run.output).not.toContain('erreur_interne');
  }, 240_000);
});
