import { checkedFetch } from './openapi-answers.js';
import { runCli } from './processes.js';

export type Json = Record<string, any>;

/** What a server process answered. */
export interface InstanceAnswer {
  status: number;
  body: Json;
  headers: Headers;
}

export interface InstanceCall {
  method: string;
  path: string;
  /** The bearer API key. */
  key: string;
  body?: object;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** A call to the `instance`-th of the server processes at `bases` (taken in turn), its answer checked against the OpenAPI document. */
export async function callInstance(bases: readonly string[], instance: number, call: InstanceCall): Promise<InstanceAnswer> {
  const response = await checkedFetch(`${bases[instance % bases.length]}${call.path}`, {
    method: call.method,
    headers: { Authorization: `Bearer ${call.key}`, ...(call.body ? { 'Content-Type': 'application/json' } : {}), ...call.headers },
    body: call.body ? JSON.stringify(call.body) : undefined,
    signal: AbortSignal.timeout(call.timeoutMs ?? 30_000),
  });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

/** A new account made with the command line of the service at `env`. */
export function createAccount(env: Record<string, string>, name: string, balance: string): { account_id: string; api_key: string } {
  const result = runCli(env, 'account:create', '--name', name, '--balance', balance);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: expect.stringMatching(/^using (sqlite|mysql) \S+\n$/) });
  return result.json as unknown as { account_id: string; api_key: string };
}

/** How many answers of each status. */
export const countByStatus = (answers: readonly InstanceAnswer[]): Record<number, number> =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** A code of the same length that is not `code`: each digit moved by one. */
export const wrongCode = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

/**
 * Five wrong codes of one OTP, each through the next instance, then its right code through the sixth: the per-code
 * attempt limit answers 400 five times, then 429, whichever instances the attempts reach.
 */
export async function expectAttemptsCountedAcross(verify: (instance: number, code: string) => Promise<InstanceAnswer>, code: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await verify(attempt, wrongCode(code));
    expect(answer.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] });
  }
  const sixth = await verify(5, code);

  expect(sixth.body).toEqual({ status: 429, message: 'trop_de_tentatives', errors: [expect.any(String)] });
  expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Simultaneous verifications of one right code: exactly one 200, for `uniqId`; every other a wrong code or the attempt limit. */
export function expectOneVerified(answers: readonly InstanceAnswer[], uniqId: string): void {
  expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.data.uniq_id)).toEqual([uniqId]);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    expect([
      { status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] },
      { status: 429, message: 'trop_de_tentatives', errors: [expect.any(String)] },
    ]).toContainEqual(refused.body);
  }
}
