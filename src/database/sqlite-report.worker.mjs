// Runs the read-only queries of reports on an SQLite database, on a connection of its own on a worker thread (see
// ReportReads). Plain JavaScript: Node runs it as it is, from src as from dist.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const connection = new Database(workerData.path, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 10000');
connection.pragma('cache_size = -8192');
const statements = new Map();

parentPort.on('message', (message) => {
  if (message === 'stop') {
    connection.close();
    parentPort.close();
    return;
  }
  const { id, query, params } = message;
  try {
    let statement = statements.get(query);
    if (!statement) statements.set(query, (statement = connection.prepare(query)));
    parentPort.postMessage({ id, rows: statement.all(params) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
