// The TypeORM CLI data source: `npx typeorm -d dist/database/data-source.js <command>`
// runs on the compiled output; this file points tools that read TypeScript at the same one.
export { default } from './src/database/data-source.js';
