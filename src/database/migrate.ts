import 'reflect-metadata';
import dataSource from './data-source.js';

/** `npm run migration:run`: applies pending migrations and prints what it ran. */
await dataSource.initialize();
const applied = await dataSource.runMigrations({ transaction: 'each' });
await dataSource.destroy();
console.log(JSON.stringify({ applied: applied.map((migration) => migration.name) }));
