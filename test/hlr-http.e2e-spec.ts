import { HLR_QUEUE } from '../src/hlr/hlr.worker.js';
import { advancedAnswer, FakeNumberInsight, json } from './support/fake-number-insight.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TIMEOUT_MS = 600;
const CREDENTIALS = { key: 'a1b2c3d4', secret: 'Sup3rS3cr3t' };

/** The `http` provider against a local server speaking Vonage Number Insight Advanced: answers, refusals, timeouts and slow answers. */
describe('/v1/hlr with the http provider (Vonage Number Insight Advanced)', () => {
  let t: TestApp;
  let vendor: FakeNumberInsight;

  beforeAll(async () => {
    vendor = await new FakeNumberInsight(CREDENTIALS).start();
    t = await startTestApp({
      HLR_PROVIDER: 'http',
      HLR_URL: vendor.url,
      HLR_API_KEY: CREDENTIALS.key,
      HLR_API_SECRET: CREDENTIALS.secret,
      HLR_TIMEOUT_MS: String(TIMEOUT_MS),
      HLR_RETRIES: '2',
    });
  });
  afterAll(async () => {
    await t?.close();
    await vendor?.stop();
  });

  /** Submits one number, lets the worker answer it, and reads the lookup. */
  const lookedUp = async (tenant: Tenant, number: string) => {
    const id = (await t.http().post('/v1/hlr').set('Authorization', tenant.auth).send({ number }).expect(200)).body.data.lookups[0].id as string;
    await t.drain(HLR_QUEUE);
    return (await t.http().get(`/v1/hlr/${id}`).set('Authorization', tenant.auth).expect(200)).body.data;
  };
  const ledgerOf = async (tenant: Tenant) =>
    (
      await t.database.run((sql) =>
        sql.all<{ kind: string; amount: number | string }>(
          "SELECT kind, amount FROM ledger_entry WHERE account_id = ? AND kind <> 'opening' ORDER BY id",
          [tenant.accountId],
        ),
      )
    ).map((entry) => ({ kind: entry.kind, amount: Number(entry.amount) }));
  const balanceOf = (tenant: Tenant) =>
    t.database.run(async (sql) => Number((await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]))!.balance) / 100);

  it('maps a success: valid, reachable, current and original network, not ported, not roaming; charged', async () => {
    const tenant = await createTenant(t);
    const lookup = await lookedUp(tenant, '+2250707070701');
    expect(lookup).toMatchObject({
      number: '+2250707070701',
      status: 'completed',
      valid: true,
      reachable: 'reachable',
      ported: false,
      roaming: false,
      country: 'CI',
      mccmnc: '61203',
      mcc: '612',
      mnc: '03',
      network_name: "Orange Cote d'Ivoire",
      original_mccmnc: '61203',
      original_network_name: "Orange Cote d'Ivoire",
      roaming_country: null,
      roaming_mccmnc: null,
      provider: 'vonage',
      provider_id: 'aaaaaaaa-bbbb-cccc-dddd-250707070701',
      provider_status: 'Success',
      error: null,
      amount: 10,
    });
    expect(vendor.callsFor('+2250707070701')).toEqual([expect.objectContaining({ number: '2250707070701', authorized: true })]);
    expect(await ledgerOf(tenant)).toEqual([{ kind: 'debit', amount: -1000 }]);
  });

  it('keeps an absent subscriber as a result: completed, charged, not refunded', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070702', (call, response) => json(response, 200, advancedAnswer(`+${call.number}`, { reachable: 'absent', lookup_outcome: 1, lookup_outcome_message: 'Partial success - some fields populated' })));
    const lookup = await lookedUp(tenant, '+2250707070702');
    expect(lookup).toMatchObject({ status: 'completed', valid: true, reachable: 'absent', error: null, amount: 10 });
    expect(await ledgerOf(tenant)).toEqual([{ kind: 'debit', amount: -1000 }]);
  });

  it('maps a ported, roaming number: the network serving it now, the one it came from, where it roams', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250505050503', (call, response) =>
      json(
        response,
        200,
        advancedAnswer(`+${call.number}`, {
          current_carrier: { network_code: '61203', name: "Orange Cote d'Ivoire", country: 'CI', network_type: 'mobile' },
          original_carrier: { network_code: '61205', name: "MTN Cote d'Ivoire", country: 'CI', network_type: 'mobile' },
          ported: 'ported',
          roaming: { status: 'roaming', roaming_country_code: 'FR', roaming_network_code: '20801', roaming_network_name: 'Orange France' },
        }),
      ),
    );
    const lookup = await lookedUp(tenant, '+2250505050503');
    expect(lookup).toMatchObject({
      status: 'completed',
      ported: true,
      roaming: true,
      mccmnc: '61203',
      network_name: "Orange Cote d'Ivoire",
      original_mccmnc: '61205',
      original_network_name: "MTN Cote d'Ivoire",
      roaming_country: 'FR',
      roaming_mccmnc: '20801',
    });
  });

  it('keeps a bad number as a result, with valid false', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070708', (call, response) => json(response, 200, advancedAnswer(`+${call.number}`, { valid_number: 'not_valid', reachable: 'bad_number', current_carrier: null })));
    expect(await lookedUp(tenant, '+2250707070708')).toMatchObject({ status: 'completed', valid: false, reachable: 'bad_number', mccmnc: null, amount: 10 });
  });

  it('fails a lookup the vendor refuses for good, without asking again, and refunds it once', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070704', (_, response) => json(response, 200, { status: 9, status_message: 'Partner quota exceeded' }));
    const lookup = await lookedUp(tenant, '+2250707070704');
    expect(lookup).toMatchObject({ status: 'failed', valid: null, reachable: null, provider: 'vonage', error: 'fournisseur: statut 9 (Partner quota exceeded)', amount: 10 });
    expect(vendor.callsFor('+2250707070704')).toHaveLength(1);
    await t.drain(HLR_QUEUE);
    expect(await ledgerOf(tenant)).toEqual([
      { kind: 'debit', amount: -1000 },
      { kind: 'refund', amount: 1000 },
    ]);
    expect(await balanceOf(tenant)).toBe(1000);
  });

  it('asks again after a vendor error, and fails the lookup with one refund when every try fails', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070705', (_, response) => json(response, 503, { status: 5, status_message: 'Internal Error' }));
    const lookup = await lookedUp(tenant, '+2250707070705');
    expect(lookup).toMatchObject({ status: 'failed', error: 'fournisseur: HTTP 503' });
    expect(vendor.callsFor('+2250707070705')).toHaveLength(3);
    expect(await ledgerOf(tenant)).toEqual([
      { kind: 'debit', amount: -1000 },
      { kind: 'refund', amount: 1000 },
    ]);
  });

  it('completes after one transient refusal (throttled)', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070706', (call, response, count) =>
      count === 1 ? json(response, 200, { status: 1, status_message: 'Throttled' }) : json(response, 200, advancedAnswer(`+${call.number}`)),
    );
    expect(await lookedUp(tenant, '+2250707070706')).toMatchObject({ status: 'completed', reachable: 'reachable' });
    expect(vendor.callsFor('+2250707070706')).toHaveLength(2);
    expect(await ledgerOf(tenant)).toEqual([{ kind: 'debit', amount: -1000 }]);
  });

  it('gives up on a vendor that does not answer within the timeout, every try, and refunds once', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070709', (call, response) => {
      setTimeout(() => response.writableEnded || json(response, 200, advancedAnswer(`+${call.number}`)), TIMEOUT_MS * 4).unref();
    });
    const started = Date.now();
    const lookup = await lookedUp(tenant, '+2250707070709');
    expect(lookup).toMatchObject({ status: 'failed', error: 'fournisseur: délai de réponse dépassé', amount: 10 });
    expect(vendor.callsFor('+2250707070709')).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS * 3);
    expect(await ledgerOf(tenant)).toEqual([
      { kind: 'debit', amount: -1000 },
      { kind: 'refund', amount: 1000 },
    ]);
  });

  it('waits for a slow answer that comes within the timeout', async () => {
    const tenant = await createTenant(t);
    vendor.on('+2250707070710', (call, response) => {
      setTimeout(() => json(response, 200, advancedAnswer(`+${call.number}`, { reachable: 'undeliverable' })), TIMEOUT_MS / 2).unref();
    });
    expect(await lookedUp(tenant, '+2250707070710')).toMatchObject({ status: 'completed', reachable: 'undeliverable' });
    expect(vendor.callsFor('+2250707070710')).toHaveLength(1);
  });

  it('sends sandbox lookups to no vendor', async () => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const lookup = await lookedUp({ ...tenant, auth: `Bearer ${api_key}` }, '+2250707070711');
    expect(lookup).toMatchObject({ status: 'completed', provider: 'sandbox', reachable: 'unknown', amount: 0, sandbox: true });
    expect(vendor.callsFor('+2250707070711')).toEqual([]);
  });
});
