import 'reflect-metadata';
import { databaseConfig } from '../config/database.config.js';
import dataSource from './data-source.js';
import { describeDatabase } from './database-target.js';

/** `npm run migration:run`: names the database on stderr, applies pending migrations (creating a SQLite file) and prints what it ran. */
process.stderr.write(`using ${describeDatabase(databaseConfig())}\n`);
await dataSource.initialize();
const applied = await dataSource.runMigrations({ transaction: 'each' });
await dataSource.destroy();
console.log(JSON.stringify({ applied: applied.map((migration) => migration.name) }));
