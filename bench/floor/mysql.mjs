// The floor's MariaDB: a pool of mysql2 connections as the service opens them (READ COMMITTED, causal reads on a Galera
// node, multi-statement queries), and units of work that send their statements in the round trips the service uses:
// writes whose result is not needed wait and travel with the next read or the commit, and the transaction opens with
// the first of them (one statement per round trip on a Galera node). A unit chosen as a deadlock victim runs again.
import mysql from 'mysql2';

const RETRYABLE = new Set([1205, 1213]);
const MIN_ATTEMPTS = 10;
const RETRY_WINDOW_MS = 5_000;

export async function openMysql(env) {
  const pool = mysql.createPool({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER,
    password: env.DB_PASSWORD,
    database: env.DB_NAME,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    multipleStatements: true,
    connectionLimit: Number(env.DB_POOL_SIZE ?? 10),
    enableKeepAlive: true,
    maxIdle: Number(env.DB_POOL_SIZE ?? 10),
  });
  pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    connection.query('SET SESSION wsrep_sync_wait = 1', () => undefined);
  });
  const query = (connection, text, params) =>
    new Promise((resolve, reject) => connection.query(text, params, (error, results) => (error ? reject(error) : resolve(results))));
  const connect = () => new Promise((resolve, reject) => pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))));

  const wsrep = await connect().then(async (connection) => {
    try {
      return (await query(connection, 'SELECT @@wsrep_on AS wsrep', []).catch(() => []))[0]?.wsrep;
    } finally {
      connection.release();
    }
  });
  const batches = ![1, '1', 'ON'].includes(wsrep);

  const unitOn = (connection) => {
    let waiting = [];
    const send = async (statements) => {
      if (statements.length === 1) return [await query(connection, statements[0].text, statements[0].params)];
      return query(connection, statements.map((statement) => statement.text).join(';\n'), statements.flatMap((statement) => statement.params));
    };
    const take = () => [waiting, (waiting = [])][0];
    const last = async (text, params) => (await send([...take(), { text, params }])).at(-1);
    return {
      dialect: 'mysql',
      get: async (text, params) => (await last(text, params))[0],
      all: last,
      allEach: async (...queries) => {
        if (!batches) {
          const rows = [];
          for (const [text, params] of queries) rows.push(await query(connection, text, params));
          return rows;
        }
        const before = take();
        return (await send([...before, ...queries.map(([text, params]) => ({ text, params }))])).slice(before.length);
      },
      run: async (text, params) => (await last(text, params)).affectedRows,
      insertId: async (text, params) => Number((await last(text, params)).insertId),
      later: async (text, params) => {
        if (batches) waiting.push({ text, params });
        else await query(connection, text, params);
      },
      flush: async () => {
        const statements = take();
        if (statements.length > 0) await send(statements);
      },
      commit: async function () {
        if (waiting.length === 1 && waiting[0].text === 'START TRANSACTION') waiting = [];
        else await this.later('COMMIT', []);
        await this.flush();
      },
      discard: () => void (waiting = []),
    };
  };

  const inUnit = async (work, transactional) => {
    const connection = await connect();
    const unit = unitOn(connection);
    try {
      if (transactional) await unit.later('START TRANSACTION', []);
      const value = await work(unit);
      await (transactional ? unit.commit() : unit.flush());
      return value;
    } catch (error) {
      unit.discard();
      if (transactional) await query(connection, 'ROLLBACK', []).catch(() => connection.destroy());
      throw error;
    } finally {
      connection.release();
    }
  };

  return {
    dialect: 'mysql',
    time: (date) => date,
    transaction: async (work) => {
      const started = Date.now();
      for (let attempt = 1; ; attempt++) {
        try {
          return await inUnit(work, true);
        } catch (error) {
          const givingUp = attempt >= MIN_ATTEMPTS && Date.now() - started >= RETRY_WINDOW_MS;
          if (givingUp || !RETRYABLE.has(error.errno)) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
        }
      }
    },
    run: (work) => inUnit(work, false),
    close: () => new Promise((resolve) => pool.end(resolve)),
  };
}
