import { ApiError } from '../common/errors/api-error.js';

/** Each command prints one JSON object on stdout, or `{"error": "…"}` on stderr and exits 1. */
export async function printJson(work: () => Promise<object>): Promise<void> {
  try {
    process.stdout.write(`${JSON.stringify(await work())}\n`);
  } catch (error) {
    printError(error instanceof ApiError ? error.describe() : error instanceof Error ? error.message : String(error));
  }
}

export function printError(message: string): void {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  process.exitCode = 1;
}
