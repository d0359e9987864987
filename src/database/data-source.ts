import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { databaseConfig } from '../config/database.config.js';
import { dataSourceOptions } from './data-source.options.js';

if (existsSync('.env')) process.loadEnvFile('.env');

/** The data source the TypeORM CLI and `npm run migration:run` use. */
export default new DataSource(dataSourceOptions(databaseConfig()));
