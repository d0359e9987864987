import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const databaseConfig = registerAs('database', () => {
  const env = parseEnvironment(process.env);
  return {
    type: env.DB_TYPE,
    path: env.DB_PATH,
    host: env.DB_HOST,
    port: env.DB_PORT,
    user: env.DB_USER ?? null,
    password: env.DB_PASSWORD ?? null,
    name: env.DB_NAME,
    poolSize: env.DB_POOL_SIZE,
  };
});

export type DatabaseConfig = ConfigType<typeof databaseConfig>;
