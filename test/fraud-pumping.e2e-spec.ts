import { createTenant, type Tenant } from './support/fixtures.js';
import { fraudCalls } from './support/fraud.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const HOUR = 3600;
const PUMPED_PREFIX = '+99899394';
/** `n` of the 10,000 numbers of a prefix: the prefix and four digits. */
const numberOf = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;

/**
 * SMS pumping as it happens (SPEC-3 §3): a script asking for codes to the
 * numbers of one prefix from many addresses, never entering them; conversion
 * by country; escalating prefix blocks; and the velocity thresholds under
 * concurrent sends.
 */
describe('OTP fraud guard: pumping, conversion, escalation, concurrency', () => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  beforeAll(async () => {
    t = await startTestApp();
    calls = fraudCalls(t);
  });
  afterAll(() => t?.close());

  const statuses = (answers: Array<{ status: number }>) => answers.reduce<Record<number, number>>((count, { status }) => ({ ...count, [status]: (count[status] ?? 0) + 1 }), {});

  it('blocks a pumped prefix at its threshold, bounds the spend by it, and leaves real users of other prefixes alone', async () => {
    const tenant = await createTenant(t);
    await calls.setPolicy(tenant, { modes: { velocity: 'enforce' } });
    const balance = await calls.balance(tenant);
    // 500 sends to 400 numbers of one prefix from 50 addresses, 25 at a time, each batch with a real user of another prefix
    const pumped = Array.from({ length: 500 }, (_, j) => ({ to: numberOf(PUMPED_PREFIX, j % 400), client_ip: `198.51.100.${j % 50}` }));
    const pumpAnswers: Array<{ status: number; body: { data?: { reasons?: string[] } } }> = [];
    const realAnswers: Array<{ status: number }> = [];
    for (let batch = 0; batch < 20; batch++) {
      const real = calls.send(tenant, numberOf(`+22501${String(batch).padStart(4, '0')}`, batch), { client_ip: `192.0.2.${batch}`, user_ref: `client-${batch}` });
      const answers = await Promise.all([real, ...pumped.slice(batch * 25, batch * 25 + 25).map(({ to, client_ip }) => calls.send(tenant, to, { client_ip }))]);
      realAnswers.push(answers[0]!);
      pumpAnswers.push(...answers.slice(1));
    }

    expect(statuses(pumpAnswers)).toEqual({ 200: 20, 403: 480 });
    expect(new Set(pumpAnswers.filter((answer) => answer.status === 403).flatMap((answer) => answer.body.data!.reasons))).toEqual(new Set(['prefix_velocity']));
    expect(statuses(realAnswers)).toEqual({ 200: 20 });
    const uzPrice = 5;
    const ciPrice = 2.5;
    expect(await calls.balance(tenant)).toBeCloseTo(balance - 20 * uzPrice - 20 * ciPrice, 2);
    expect(await calls.count('otp', tenant)).toBe(40);
    expect(await calls.blocks(tenant)).toEqual([expect.objectContaining({ scope: 'prefix', value: PUMPED_PREFIX, reason: 'prefix_velocity', mode: 'enforce', strikes: 1, active: true })]);
    expect((await calls.attempts(tenant, { reason: 'prefix_velocity', mode: 'blocked' })).length).toBe(100);
    const blocked = await t.database.run((sql) =>
      sql.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM fraud_attempt WHERE account_id = ? AND mode = 'blocked' AND prefix = ?", [tenant.accountId, PUMPED_PREFIX]),
    );
    expect(Number(blocked!.n)).toBe(480);
  }, 120_000);

  it('blocks a country whose codes are rarely verified (5 of 100) and leaves one where 80 of 100 are verified', async () => {
    const tenant = await createTenant(t, { balance: '10000.00' });
    await calls.setPolicy(tenant, { modes: { conversion: 'enforce' } });
    // ten prefixes of ten numbers each: no prefix reaches the 30 codes a prefix is judged on
    const senegal = Array.from({ length: 100 }, (_, n) => `+22177${String(100 + Math.floor(n / 10)).padStart(3, '0')}${String(n % 10).padStart(4, '0')}`);
    const cameroon = Array.from({ length: 100 }, (_, n) => `+2376${String(1000 + Math.floor(n / 10))}${String(n % 10).padStart(4, '0')}`);
    const codes = new Map<string, string>();
    for (const to of [...senegal, ...cameroon]) codes.set(to, (await calls.send(tenant, to).expect(200)).body.data.code);
    for (const to of [...senegal.slice(0, 5), ...cameroon.slice(0, 80)]) {
      await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code: codes.get(to) }).expect(200);
    }
    t.clock.advance(301);

    await t.drain('fraud-conversion');

    expect(await calls.blocks(tenant)).toEqual([expect.objectContaining({ scope: 'country', value: 'SN', reason: 'low_conversion', mode: 'enforce', active: true })]);
    const refused = await calls.send(tenant, '+221771239999');
    expect(refused.body).toMatchObject({ status: 403, errors: ['to: pays SN bloqué temporairement (codes rarement vérifiés)'], data: { reasons: ['low_conversion'] } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(6 * HOUR - 10);
    await calls.send(tenant, '+237699999999').expect(200);

    t.clock.advance(60);
    await t.drain('fraud-conversion');
    expect(await calls.blocks(tenant)).toHaveLength(1);
  }, 120_000);

  it('records the sends to a low-conversion country under a monitor block with the default policy', async () => {
    const tenant = await createTenant(t, { balance: '10000.00' });
    for (let n = 0; n < 40; n++) await calls.send(tenant, `+22177${String(200 + Math.floor(n / 10))}${String(n % 10).padStart(4, '0')}`).expect(200);
    t.clock.advance(301);

    await t.drain('fraud-conversion');

    expect(await calls.blocks(tenant)).toEqual([expect.objectContaining({ scope: 'country', value: 'SN', reason: 'low_conversion', mode: 'monitor' })]);
    const sent = await calls.send(tenant, '+221771239998').expect(200);
    expect(await calls.attempts(tenant)).toEqual([expect.objectContaining({ mode: 'monitored', reasons: ['low_conversion'], otp_id: sent.body.data.uniq_id })]);
  }, 60_000);

  it('blocks a prefix again for 1 h, 2 h, 4 h … up to 24 h, and from 1 h again once a block is lifted by route', async () => {
    const tenant = await createTenant(t);
    await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 2 } });
    const prefix = '+225070808';
    let n = 0;
    const crossing = async () => {
      await calls.send(tenant, numberOf(prefix, ++n)).expect(200);
      await calls.send(tenant, numberOf(prefix, ++n)).expect(200);
      const refused = await calls.send(tenant, numberOf(prefix, ++n));
      expect(refused.body.data.reasons).toEqual(['prefix_velocity']);
      return Number(refused.headers['retry-after']);
    };

    const lengths: number[] = [];
    for (let repeat = 0; repeat < 7; repeat++) {
      const length = await crossing();
      lengths.push(length);
      expect((await calls.send(tenant, numberOf(prefix, 1))).status).toBe(403);
      t.clock.advance(length + 1);
    }

    expect(lengths).toEqual([1, 2, 4, 8, 16, 24, 24].map((hours) => hours * HOUR));
    expect((await calls.blocks(tenant)).map((block) => block.strikes)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const again = await crossing();
    expect(again).toBe(24 * HOUR);
    const [current] = await calls.blocks(tenant, { active: 'true' });
    await t.http().delete(`/v1/fraud/blocks/${current!.id}`).set('Authorization', tenant.auth).expect(200);
    expect(await crossing()).toBe(HOUR);
  }, 60_000);

  it.each([
    ['client_ip', 'ip_per_hour', 'ip_velocity', (n: number) => ({ client_ip: '192.0.2.50', n })],
    ['user_ref', 'user_per_hour', 'user_velocity', (n: number) => ({ user_ref: 'compte-vole', n })],
    ['country', 'country_per_10_min', 'country_burst', (n: number) => ({ n })],
  ])('accepts exactly the threshold of 50 simultaneous sends sharing one %s', async (_, threshold, reason, fields) => {
    const tenant = await createTenant(t);
    await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { [threshold]: 10 } });
    const balance = await calls.balance(tenant);

    const answers = await Promise.all(
      Array.from({ length: 50 }, (__, n) => {
        const { n: ___, ...extra } = fields(n);
        return calls.send(tenant, numberOf(`+22507${String(1000 + n)}`, n), extra);
      }),
    );

    expect(statuses(answers)).toEqual({ 200: 10, 403: 40 });
    expect(new Set(answers.filter((answer) => answer.status === 403).flatMap((answer) => answer.body.data.reasons))).toEqual(new Set([reason]));
    expect(await calls.count('otp', tenant)).toBe(10);
    expect(await calls.balance(tenant)).toBeCloseTo(balance - 10 * 2.5, 2);
  }, 60_000);

  it('reserves the sends of a busy country ahead in its row, and accepts no more than its threshold', async () => {
    const tenant = await createTenant(t, { balance: '10000.00' });
    await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { country_per_10_min: 600, prefix_per_hour: 10_000 } });
    const counted = async () => {
      const row = await t.database.run((sql) => sql.get<{ counts: string }>("SELECT counts FROM fraud_velocity_key WHERE account_id = ? AND kind = 'country'", [tenant.accountId]));
      return row!.counts.split(',').reduce((sum, count) => sum + Number(count), 0);
    };
    const send = (n: number) => calls.send(tenant, numberOf('+225070701', n));
    // the start of a minute, so that every send below falls in it (a reservation is good for its minute only)
    t.clock.advance(61 - ((t.clock.now().getTime() / 1000) % 60));

    // one after the other: the 1st reserves itself, the 2nd itself and one more, taken by the 3rd; then each send that
    // reads the row reserves two more (1/256 of the room left), taken by the next two
    for (let n = 0; n < 31; n++) await send(n).expect(200);
    expect(await calls.count('otp', tenant)).toBe(31);
    expect(await counted()).toBe(33);

    const answers = [];
    for (let wave = 31; wave < 650; wave += 50) answers.push(...(await Promise.all(Array.from({ length: Math.min(50, 650 - wave) }, (_, n) => send(wave + n)))));
    expect(statuses(answers)).toEqual({ 200: 569, 403: 50 });
    expect(new Set(answers.filter((answer) => answer.status === 403).flatMap((answer) => answer.body.data.reasons))).toEqual(new Set(['country_burst']));
    expect(await calls.count('otp', tenant)).toBe(600);
    expect(await counted()).toBe(600);
  }, 120_000);
});
