import { readTime } from '../src/database/sql.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { fraudCalls } from './support/fraud.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60;
const HOUR = 3600;

interface Counts {
  [key: string]: { sent: number; verified: number };
}

/**
 * The low-conversion job keeps its counts from one run to the next (SPEC-3
 * §3): at each run they are those a count of the whole day would give, the
 * codes sent in the 24 hours before it whose validity has ended, per country
 * and prefix, and the codes that leave the day leave them.
 */
describe('OTP fraud guard: the low-conversion counts over a day', () => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  beforeAll(async () => {
    t = await startTestApp();
    calls = fraudCalls(t);
  });
  afterAll(() => t?.close());

  const kept = async (tenant: Tenant): Promise<Counts> => {
    const rows = await t.database.run((sql) =>
      sql.all<{ scope: string; value: string; sent: number | string; verified: number | string }>(
        'SELECT scope, value, sent, verified FROM fraud_conversion_tally WHERE account_id = ?',
        [tenant.accountId],
      ),
    );
    return Object.fromEntries(rows.map((row) => [`${row.scope}:${row.value}`, { sent: Number(row.sent), verified: Number(row.verified) }]));
  };

  const countedTo = async (): Promise<Date> => {
    const job = await t.database.run((sql) => sql.get<{ counted_to: string | Date }>('SELECT counted_to FROM fraud_conversion_job'));
    return readTime(job!.counted_to);
  };

  /** The codes of the day before the job's last run whose validity had ended then, counted from the OTP table. */
  const ofTheDay = async (tenant: Tenant): Promise<Counts> => {
    const counts: Counts = {};
    const to = await countedTo();
    await t.database.run(async (sql) => {
      const codes = await sql.all<{ country: string; prefix: string; status: string }>(
        'SELECT country, prefix, status FROM otp WHERE account_id = ? AND created_at >= ? AND created_at < ? AND expires_at <= ?',
        [tenant.accountId, new Date(to.getTime() - 24 * HOUR * 1000), to, to],
      );
      for (const code of codes) {
        for (const key of [`country:${code.country}`, `prefix:${code.prefix}`]) {
          counts[key] ??= { sent: 0, verified: 0 };
          counts[key].sent++;
          if (code.status === 'verified') counts[key].verified++;
        }
      }
    });
    return counts;
  };

  const sendAndVerify = async (tenant: Tenant, numbers: string[], verified: number, extra: Record<string, unknown> = {}) => {
    for (const [n, to] of numbers.entries()) {
      const { code } = (await calls.send(tenant, to, extra).expect(200)).body.data;
      if (n < verified) await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code }).expect(200);
    }
  };

  /** Runs the job once the clock has moved on, and checks its counts against the day's. */
  const run = async (tenant: Tenant, seconds: number): Promise<Counts> => {
    t.clock.advance(seconds);
    const due = t.clock.now();
    await t.drain('fraud-conversion');
    expect((await countedTo()).getTime()).toBeGreaterThanOrEqual(due.getTime());
    const counts = await kept(tenant);
    expect(counts).toEqual(await ofTheDay(tenant));
    return counts;
  };

  it('counts each code once its validity has ended, and takes it out once it is a day old', async () => {
    const tenant = await createTenant(t, { balance: '10000.00' });
    const senegal = Array.from({ length: 40 }, (_, n) => `+22177${String(300 + Math.floor(n / 10))}${String(n % 10).padStart(4, '0')}`);
    const cameroon = Array.from({ length: 30 }, (_, n) => `+2376${String(2000 + Math.floor(n / 10))}${String(n % 10).padStart(4, '0')}`);
    await run(tenant, MINUTE);
    await sendAndVerify(tenant, senegal, 10);
    await sendAndVerify(tenant, cameroon, 0);

    // verified or not, no code counts while it may still be verified
    expect(await run(tenant, 2 * MINUTE)).toEqual({});
    const first = await run(tenant, 4 * MINUTE);
    expect(first['country:SN']).toEqual({ sent: 40, verified: 10 });
    expect(first['country:CM']).toEqual({ sent: 30, verified: 0 });
    expect(first['prefix:+22177300']).toEqual({ sent: 10, verified: 10 });

    // codes valid for the longest time, sent two hours later
    await run(tenant, 2 * HOUR);
    await sendAndVerify(tenant, senegal.slice(0, 20), 5, { otp_expiry: HOUR });
    expect((await run(tenant, 30 * MINUTE))['country:SN']).toEqual({ sent: 40, verified: 10 });
    expect((await run(tenant, 31 * MINUTE))['country:SN']).toEqual({ sent: 60, verified: 15 });

    // the first codes leave the day, then the later ones, and their counts with them
    const later = await run(tenant, 21 * HOUR);
    expect(later['country:SN']).toEqual({ sent: 20, verified: 5 });
    expect(later['country:CM']).toBeUndefined();
    expect(await run(tenant, 3 * HOUR)).toEqual({});
  }, 120_000);

  it('judges a country on the counts it keeps, after a gap of more than a day', async () => {
    const tenant = await createTenant(t, { balance: '10000.00' });
    await calls.setPolicy(tenant, { modes: { conversion: 'enforce' } });
    const senegal = Array.from({ length: 30 }, (_, n) => `+22177${String(400 + Math.floor(n / 10))}${String(n % 10).padStart(4, '0')}`);
    await sendAndVerify(tenant, senegal, 5);
    // no instance runs the job for 30 hours; the next run counts the day from the OTP table
    t.clock.advance(30 * HOUR);
    await sendAndVerify(tenant, senegal, 2);

    expect((await run(tenant, 6 * MINUTE))['country:SN']).toEqual({ sent: 30, verified: 2 });
    expect(await calls.blocks(tenant)).toEqual([expect.objectContaining({ scope: 'country', value: 'SN', reason: 'low_conversion', mode: 'enforce', active: true })]);
  }, 120_000);
});
