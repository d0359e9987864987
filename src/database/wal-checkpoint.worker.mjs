// Checkpoints an SQLite database's write-ahead log on a connection of its own, on a worker
// thread (see WalCheckpointer). Plain JavaScript: Node runs it as it is, from src as from dist.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, intervalMs, maxFrames } = workerData;
const connection = new Database(path, { fileMustExist: true });
connection.pragma('busy_timeout = 1000');

/** Waiting for the serving connection to pause its writes, then starting the log over. */
let restarting = false;
/** The frames of the log the last restart found: it starts over at the next write, not before. */
let restartedAt = -1;

function checkpoint() {
  if (restarting) return;
  try {
    const [{ log }] = connection.pragma('wal_checkpoint(PASSIVE)');
    // the log starts over only when a writer finds it all copied and no reader in it, which under steady
    // traffic it rarely finds: past maxFrames, the serving connection is asked to pause its writes while
    // what the last passive checkpoint missed is copied and the log starts over
    if (log > maxFrames && log !== restartedAt) {
      restarting = true;
      parentPort.postMessage({ pause: true });
    }
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
}

function restart() {
  try {
    const [{ busy, log }] = connection.pragma('wal_checkpoint(RESTART)');
    restartedAt = busy ? -1 : log;
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  } finally {
    restarting = false;
    parentPort.postMessage({ restarted: true });
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (message) => {
  if (message === 'paused') return restart();
  if (message !== 'stop') return;
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
