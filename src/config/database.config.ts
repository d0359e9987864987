import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const databaseConfig = registerAs('database', () => {
  const env = parseEnvironment(process.env);
  return {
    type: env.DB_TYPE,
    /** The SQLite file: DB_PATH, else `messaging.sqlite` in DATA_DIR. */
    path: env.DB_PATH ?? `${env.DATA_DIR.replace(/\/+$/, '')}/messaging.sqlite`,
    /** DB_HOSTS when set, else DB_HOST:DB_PORT: the servers connections fail over between, in order. */
    hosts: env.DB_HOSTS ? parseHosts(env.DB_HOSTS) : [{ host: env.DB_HOST, port: env.DB_PORT }],
    user: env.DB_USER ?? null,
    password: env.DB_PASSWORD ?? null,
    name: env.DB_NAME,
    poolSize: env.DB_POOL_SIZE,
  };
});

export type DatabaseConfig = ConfigType<typeof databaseConfig>;

/** One server of the database, or one node of a cluster. */
export interface DatabaseHost {
  host: string;
  port: number;
}

/** `host:port,host:port` (checked by the environment's validation). */
export function parseHosts(list: string): DatabaseHost[] {
  return list.split(',').map((entry) => {
    const at = entry.lastIndexOf(':');
    return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
  });
}
