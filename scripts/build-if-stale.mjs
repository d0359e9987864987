// `npm start`: builds only when the sources are newer than the last build, so that a restart with nothing changed
// starts at once (a build takes some 30 s). The last build is tsc's build information (`dist/.tsbuildinfo`,
// tsconfig.build.json), written by every `nest build`; what it is compared with is every file and folder under
// `src` (a folder's time changes when a file is removed from it) and the files that change how the build turns out.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const BUILD_INFO = join('dist', '.tsbuildinfo');
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

/** Why the project in `root` needs a build, or null when its build is newer than every input. */
export function staleReason(root) {
  const built = modifiedAt(join(root, BUILD_INFO));
  if (built === null) return 'no build yet';
  for (const input of INPUTS) {
    const newer = newerThan(join(root, input), built);
    if (newer !== null) return `${newer} changed since the last build`;
  }
  return null;
}

/** The first path at or under `path` modified after `time`, or null. */
function newerThan(path, time) {
  const stats = statOf(path);
  if (stats === null) return null;
  if (stats.mtimeMs > time) return path;
  if (!stats.isDirectory()) return null;
  for (const entry of readdirSync(path)) {
    const newer = newerThan(join(path, entry), time);
    if (newer !== null) return newer;
  }
  return null;
}

const modifiedAt = (path) => statOf(path)?.mtimeMs ?? null;

function statOf(path) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const reason = staleReason('.');
  if (reason !== null) {
    process.stderr.write(`Building (${reason})…\n`);
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    process.exit(build.status ?? 1);
  }
}
