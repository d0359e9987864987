import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatabaseConfig } from '../config/database.config.js';

/** The database a process acts on, for its operator: `sqlite <absolute path>`, or `mysql user@host:port,…/name`. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.type === 'sqlite') return `sqlite ${config.path === ':memory:' ? config.path : resolve(config.path)}`;
  const servers = config.hosts.map((server) => `${server.host}:${server.port}`).join(',');
  return `mysql ${config.user === null ? '' : `${config.user}@`}${servers}/${config.name}`;
}

/** Why a command must not run here: a SQLite file that does not exist, which it would create empty. Null when it may. */
export function missingDatabase(config: DatabaseConfig): string | null {
  if (config.type !== 'sqlite' || config.path === ':memory:' || existsSync(config.path)) return null;
  return `no database at ${resolve(config.path)}: set DB_PATH or DATA_DIR as the server does`;
}
