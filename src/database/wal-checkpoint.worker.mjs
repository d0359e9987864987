// Checkpoints an SQLite database's write-ahead log on a connection of its own, on a worker
// thread (see WalCheckpointer). Plain JavaScript: Node runs it as it is, from src as from dist.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, intervalMs, maxFrames } = workerData;
const connection = new Database(path, { fileMustExist: true });
connection.pragma('busy_timeout = 1000');

function checkpoint() {
  try {
    const [{ log }] = connection.pragma('wal_checkpoint(PASSIVE)');
    // the log starts over only when a writer finds it all copied, which under steady writes a passive
    // checkpoint rarely leaves it: past maxFrames, writers wait while what the last one missed is copied
    if (log > maxFrames) connection.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
