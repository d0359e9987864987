import { callInstance, createAccount, type InstanceAnswer } from './support/instance-calls.js';
import { productionEnv, startInstances, type ServerProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const SECRET = 'otp-beside-bulk-e2e-secret-0123456789abc';
const BULK_SENDS = 30;
const RECIPIENTS = 1000;

/** `+22507`, the send on 2 digits and the recipient on 6: a valid Ivorian number. */
const recipient = (send: number, n: number) => `+22507${String(send).padStart(2, '0')}${String(n).padStart(6, '0')}`;

/**
 * An OTP's units go before the bulk sends' waiting for the database: for
 * SQLite's one connection (SqliteUnits), or, on MySQL, for the pool's
 * connections, two here (ConnectionGate).
 */
describe('an OTP beside bulk sends', () => {
  let database: TestDatabase;
  let server: ServerProcess & { base: string };
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = productionEnv(database.env, SECRET, { DB_POOL_SIZE: '2' });
    [server] = await startInstances(env, 1);
    key = createAccount(env, 'Bulk and OTP', '100000').api_key;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const post = (path: string, body: object) => callInstance([server.base], 0, { method: 'POST', path, key, body, timeoutMs: 60_000 });

  it('answers an OTP asked for while thirty 1,000-recipient sends wait before most of them', async () => {
    const answered: string[] = [];
    const noted = (name: string) => (answer: InstanceAnswer) => void answered.push(`${name} ${answer.status}`);
    const bulk = Array.from({ length: BULK_SENDS }, (_, send) =>
      post('/v1/sms/send', { to: Array.from({ length: RECIPIENTS }, (_, n) => recipient(send, n)), message: 'Soldes demain !' }).then(noted('bulk')),
    );
    await Promise.race(bulk);

    await post('/v1/otp/send', { channel: 'SMS', to: '+2250707070707', message: 'Votre code est ##OTP##' }).then(noted('otp'));
    await Promise.all(bulk);

    expect(answered.filter((answer) => answer !== 'bulk 200' && answer !== 'otp 200')).toEqual([]);
    expect(answered.indexOf('otp 200')).toBeLessThan(BULK_SENDS / 2);
  }, 60_000);
});
