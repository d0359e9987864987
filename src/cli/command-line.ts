import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module.js';
import { printError } from './json-output.js';

/** `npm run cli -- <command> [options]`: administration, one JSON object per command. */
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
