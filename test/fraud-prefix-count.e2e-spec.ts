import { DataSource } from 'typeorm';
import { createTenant } from './support/fixtures.js';
import { ciNumber, fraudCalls } from './support/fraud.js';
import { newId } from '../src/common/ids.js';
import { OtpPrefixBackfill1765800000000 } from '../src/database/migrations/1765800000000-otp-prefix-backfill.js';
import { recordStatements } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PREFIX = '+225070707';
/** Velocity enforced, so that every send counts its prefix (monitor mode may spare the count, VelocityMemo). */
const ENFORCED = { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 3, country_per_10_min: 1000 } };

/**
 * A prefix's count of distinct numbers, read with the send-limit read (which then goes through the prefix's OTPs) when
 * the send window lies within the prefix's hour, and by a subquery of its own when the window is longer: the same
 * verdicts either way, and each number keeps its own send limit.
 */
describe.each([
  ['a send window within the hour', {}, 'fraud_prefix_sends'],
  ['a send window longer than the hour', { OTP_SEND_WINDOW_SECONDS: '7200' }, 'fraud_prefix_count'],
])('OTP fraud guard: the prefix count, with %s', (_, env, readColumn) => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  beforeAll(async () => {
    t = await startTestApp(env);
    calls = fraudCalls(t);
  });
  afterAll(() => t?.close());

  it("counts a prefix's distinct numbers, not its sends: sends again to two of its numbers leave room for a third", async () => {
    const tenant = await createTenant(t);
    await calls.setPolicy(tenant, ENFORCED);
    const recording = recordStatements(t.app.get(DataSource));
    for (const n of [1, 2, 1, 2, 1, 2]) await calls.send(tenant, ciNumber(PREFIX, n)).expect(200);

    await calls.send(tenant, ciNumber(PREFIX, 3)).expect(200);
    await calls.send(tenant, ciNumber(PREFIX, 1)).expect(200);
    const fourth = await calls.send(tenant, ciNumber(PREFIX, 4));
    recording.stop();

    expect(fourth.status).toBe(403);
    expect(fourth.body.data.reasons).toEqual(['prefix_velocity']);
    const sendLimitReads = recording.statements.filter((statement) => /^SELECT SUM\(CASE WHEN .*\bFROM otp AS o\b/s.test(statement.query));
    expect(sendLimitReads).toHaveLength(9);
    for (const read of sendLimitReads) expect(read.query).toContain(`AS ${readColumn}`);
    // through the prefix, its distinct numbers are counted apart once the sends to its other numbers reach 3: the last four sends
    const distinctCounts = recording.statements.filter((statement) => /^SELECT \(SELECT COUNT\(\*\) FROM \(SELECT DISTINCT recipient\b/.test(statement.query));
    expect(distinctCounts).toHaveLength(readColumn === 'fraud_prefix_sends' ? 4 : 0);
  });

  it("holds each number to its own send limit among its prefix's, the live and test keys' sends together", async () => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const sandbox = { ...tenant, auth: `Bearer ${api_key}` };
    for (const each of [tenant, sandbox]) await calls.setPolicy(each, { ...ENFORCED, thresholds: { prefix_per_hour: 1000, country_per_10_min: 1000 } });
    for (let n = 10; n < 15; n++) await calls.send(tenant, ciNumber(PREFIX, n)).expect(200);
    for (const each of [tenant, tenant, tenant, sandbox, sandbox]) await calls.send(each, ciNumber(PREFIX, 1)).expect(200);

    const res = await calls.send(tenant, ciNumber(PREFIX, 1));
    expect(res.status).toBe(429);
    expect(res.body.errors).toEqual([expect.stringMatching(/^to: trop d'envois vers ce destinataire, réessayez dans \d+ s$/)]);
    await calls.send(sandbox, ciNumber(PREFIX, 1)).expect(429);
    await calls.send(sandbox, ciNumber(PREFIX, 2)).expect(200);
  });
});

/** OTPs sent before the prefix column existed: those of the last hour get theirs, so that the send-limit read through the prefix finds them. */
describe('OTP fraud guard: prefixes of earlier OTPs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it("fills in the prefix of the last hour's SMS OTPs, which then count toward their number's send limit", async () => {
    const tenant = await createTenant(t);
    await fraudCalls(t).setPolicy(tenant, ENFORCED);
    const to = ciNumber(PREFIX, 77);
    const now = t.clock.now().getTime();
    const earlier = [
      ...Array.from({ length: 5 }, () => ({ to, channel: 'SMS', at: now - 60_000 })),
      { to: ciNumber(PREFIX, 78), channel: 'SMS', at: now - 7_200_000 },
      { to: 'awa@example.com', channel: 'EMAIL', at: now - 60_000 },
    ].map((otp) => ({ ...otp, id: newId(new Date(otp.at)) }));
    for (const [i, otp] of earlier.entries()) {
      await t.database.run((sql) =>
        sql.run(
          `INSERT INTO otp (uniq_id, account_id, recipient, channel, code_hash, status, attempts, expires_at, language, lot, created_by, is_test, created_at)
            VALUES (?, ?, ?, ?, '', 'pending', 0, ?, 'fr', ?, ?, 0, ?)`,
          [otp.id, tenant.accountId, otp.to, otp.channel, new Date(otp.at + 300_000), `LOT${i}`, tenant.userId, new Date(otp.at)],
        ),
      );
    }

    const runner = t.app.get(DataSource).createQueryRunner();
    await new OtpPrefixBackfill1765800000000().up(runner).finally(() => runner.release());

    const prefixes = await t.database.run((sql) => sql.all<{ uniq_id: string; prefix: string | null }>('SELECT uniq_id, prefix FROM otp WHERE account_id = ?', [tenant.accountId]));
    expect(new Map(prefixes.map((row) => [row.uniq_id, row.prefix]))).toEqual(new Map(earlier.map((otp, i) => [otp.id, i < 5 ? PREFIX : null])));
    await fraudCalls(t).send(tenant, to).expect(429);
  });
});
