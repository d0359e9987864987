// Preloaded into a process (NODE_OPTIONS=--require …) with STATEMENT_TRACE_FILE set: appends to that file one line per
// statement the process sends to its database, `<pid>\t<dialect>\t<text>` (whitespace runs made one space).
// Statements are noted as written, with their placeholders, where the driver takes them:
// - SQLite: better-sqlite3 has no trace hook (SQLite's sqlite3_trace_v2 is not exposed, and its `verbose` option gives
//   the text with the values spliced in), so the run, get, all and iterate of every prepared statement (a pragma is
//   one too) and exec are wrapped.
// - MariaDB: mysql2's connection `query`, one line per round trip (a multi-statement query's statements joined by `;`);
//   its diagnostics channel (`mysql2:query`) publishes the text only once the values are spliced in.
'use strict';
const { appendFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const file = process.env.STATEMENT_TRACE_FILE;
const note = (dialect, text) => appendFileSync(file, `${process.pid}\t${dialect}\t${String(text).replace(/\s+/g, ' ').trim()}\n`);

if (file) {
  const installed = (name) => {
    try {
      return dirname(require.resolve(`${name}/package.json`, { paths: [process.cwd()] }));
    } catch {
      return undefined;
    }
  };
  const mysql2 = installed('mysql2');
  if (mysql2) {
    const connection = require(join(mysql2, 'lib', 'base', 'connection.js')).prototype;
    const query = connection.query;
    connection.query = function (sql, ...rest) {
      note('mysql', typeof sql === 'string' ? sql : sql.sql);
      return query.call(this, sql, ...rest);
    };
  }
  const sqlite = installed('better-sqlite3');
  if (sqlite) {
    const Database = require(sqlite);
    const probe = new Database(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
    probe.close();
    for (const name of ['run', 'get', 'all', 'iterate']) {
      const original = statement[name];
      statement[name] = function (...args) {
        note('sqlite', this.source);
        return original.apply(this, args);
      };
    }
    const exec = Database.prototype.exec;
    Database.prototype.exec = function (text) {
      note('sqlite', text);
      return exec.call(this, text);
    };
  }
}
