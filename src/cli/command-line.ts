import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { databaseConfig } from '../config/database.config.js';
import { ConfigurationError } from '../config/environment.js';
import { describeDatabase, missingDatabase } from '../database/database-target.js';
import { printError } from './json-output.js';

/** The commands that may make the SQLite file (the first account of a new installation); the others act on the server's. */
const MAKES_DATABASE = new Set(['account:create']);

/**
 * Reads the variables the server reads (`.env` too), names the database on
 * stderr, and refuses a SQLite file that does not exist rather than create an
 * empty one, which would answer as if the server's data were not there.
 */
function checkDatabase(command: string | undefined): boolean {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    const config = databaseConfig();
    process.stderr.write(`using ${describeDatabase(config)}\n`);
    const missing = command === undefined || command.startsWith('-') || MAKES_DATABASE.has(command) ? null : missingDatabase(config);
    if (missing !== null) printError(missing);
    return missing === null;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    printError(error.message);
    return false;
  }
}

/** `npm run cli -- <command> [options]`: administration, one JSON object per command; the commands load once the database is found. */
if (checkDatabase(process.argv[2])) {
  // one after the other: nest-commander require()s @nestjs/core, which must not be half-loaded by the other import
  const { CliModule } = await import('./cli.module.js');
  const { CommandFactory } = await import('nest-commander');
  await CommandFactory.run(CliModule, {
    logger: false,
    cliName: 'npm run cli --',
    outputConfiguration: {
      writeErr: (text) => printError(text.replace(/^error: /, '').trim()),
    },
    errorHandler: (error) => {
      const { exitCode, code } = error as { exitCode?: number; code?: string };
      // commander has already written its own errors through writeErr
      if (!code?.startsWith('commander.')) printError(error.message);
      process.exit(exitCode === 0 ? 0 : 1);
    },
    serviceErrorHandler: (error) => printError(error.message),
  });
}
