import { HLR_QUEUE } from '../src/hlr/hlr.worker.js';
import { JobRunner } from '../src/jobs/job-runner.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('/v1/hlr with the local provider', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const submit = (tenant: Tenant, body: object, headers: Record<string, string> = {}) =>
    t.http().post('/v1/hlr').set('Authorization', tenant.auth).set(headers).send(body);
  const read = (tenant: Tenant, id: string) => t.http().get(`/v1/hlr/${id}`).set('Authorization', tenant.auth);
  const list = (tenant: Tenant, query = '') => t.http().get(`/v1/hlr${query}`).set('Authorization', tenant.auth);
  /** Submits, lets the worker answer every lookup, and reads them back in the order submitted. */
  const lookedUp = async (tenant: Tenant, numbers: string[]) => {
    const batch = (await submit(tenant, { numbers }).expect(200)).body.data;
    await t.drain(HLR_QUEUE);
    return Promise.all((batch.lookups as Array<{ id: string }>).map(async ({ id }) => (await read(tenant, id).expect(200)).body.data));
  };
  const balanceOf = (tenant: Tenant) =>
    t.database.run(async (sql) => {
      const account = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]);
      const ledger = await sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId]);
      expect(Number(ledger?.total)).toBe(Number(account?.balance));
      return Number(account?.balance) / 100;
    });
  const storedCount = (tenant: Tenant) =>
    t.database.run(async (sql) => Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM hlr_lookup WHERE account_id = ?', [tenant.accountId]))!.n));
  const ledgerOf = async (tenant: Tenant) =>
    (
      await t.database.run((sql) =>
        sql.all<{ kind: string; amount: number | string; reference_type: string }>(
          "SELECT kind, amount, reference_type FROM ledger_entry WHERE account_id = ? AND kind <> 'opening' ORDER BY id",
          [tenant.accountId],
        ),
      )
    ).map((entry) => ({ ...entry, amount: Number(entry.amount) }));

  describe('POST', () => {
    it('accepts valid numbers as pending lookups priced by country, rejects the others, and debits the total once', async () => {
      const tenant = await createTenant(t);

      const response = await submit(tenant, {
        numbers: ['+2250707070707', '07 07 07 07 07', '+221771234567', 'pas un numéro', '+33612345678', '+2250505050505'],
        external_id: 'verif-1',
        default_country: 'CI',
      }).expect(200);

      expect(response.body).toEqual({
        status: 200,
        message: 'succès',
        data: {
          lot: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
          count: 4,
          amount: 42,
          balance: 958,
          lookups: [
            { id: expect.stringMatching(UUID), number: '+2250707070707', status: 'pending', amount: 10 },
            { id: expect.stringMatching(UUID), number: '+221771234567', status: 'pending', amount: 10 },
            { id: expect.stringMatching(UUID), number: '+33612345678', status: 'pending', amount: 12 },
            { id: expect.stringMatching(UUID), number: '+2250505050505', status: 'pending', amount: 10 },
          ],
          rejected: [
            { number: '07 07 07 07 07', reason: 'doublon' },
            { number: 'pas un numéro', reason: 'numero_invalide' },
          ],
        },
      });
      expect(await balanceOf(tenant)).toBe(958);
      expect(await ledgerOf(tenant)).toEqual([{ kind: 'debit', amount: -4200, reference_type: 'hlr' }]);
    });

    it('takes a single `number`, priced from the `*` row outside the seeded countries', async () => {
      const tenant = await createTenant(t);
      const data = (await submit(tenant, { number: '+14155552671' }).expect(200)).body.data;
      expect(data).toMatchObject({ count: 1, amount: 15, balance: 985, lookups: [{ number: '+14155552671', status: 'pending', amount: 15 }], rejected: [] });
    });

    it('answers 400 for a body without numbers, bad fields, or nothing valid, storing nothing', async () => {
      const tenant = await createTenant(t);
      expect((await submit(tenant, {}).expect(400)).body).toEqual(invalid('numbers: au moins un numéro (numbers ou number)'));
      expect((await submit(tenant, { numbers: [] }).expect(400)).body).toEqual(invalid('numbers: doit être une liste de 1 à 1000 numéros'));
      expect((await submit(tenant, { numbers: ['+2250707070707', 7] }).expect(400)).body).toEqual(invalid('numbers[1]: doit être une chaîne de caractères'));
      expect((await submit(tenant, { numbers: Array.from({ length: 1001 }, () => '+2250707070707') }).expect(400)).body).toEqual(
        invalid('numbers: doit être une liste de 1 à 1000 numéros'),
      );
      expect((await submit(tenant, { number: '+2250707070707', default_country: 'ci', external_id: 'é' }).expect(400)).body).toEqual(
        invalid('external_id: 1 à 100 caractères ASCII imprimables', 'default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'),
      );
      expect((await submit(tenant, { numbers: ['+22507', 'abc'] }).expect(400)).body).toEqual(
        invalid('numbers: aucun numéro valide', '+22507: numero_invalide', 'abc: numero_invalide'),
      );
      expect((await submit(tenant, { number: '+2250707070707', webhook_url: 'ftp://example.com/x' }).expect(400)).body).toEqual(
        invalid('webhook_url: adresse non autorisée'),
      );
      expect(await storedCount(tenant)).toBe(0);
      expect(await balanceOf(tenant)).toBe(1000);
    });

    it('answers 402 solde_insuffisant when the balance does not cover the total, and stores nothing', async () => {
      const tenant = await createTenant(t, { balance: '15.00' });
      const response = await submit(tenant, { numbers: ['+2250707070707', '+2250505050505'] }).expect(402);
      expect(response.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 20, balance: 15 } });
      expect(await storedCount(tenant)).toBe(0);
      expect(await balanceOf(tenant)).toBe(15);
    });

    it('answers a replay with the same Idempotency-Key with the first answer, charging once; other content is 422', async () => {
      const tenant = await createTenant(t);
      const headers = { 'Idempotency-Key': 'hlr-once-1' };
      const first = (await submit(tenant, { number: '+2250707070707' }, headers).expect(200)).body;
      const again = (await submit(tenant, { number: '+2250707070707' }, headers).expect(200)).body;
      expect(again).toEqual(first);
      expect(await storedCount(tenant)).toBe(1);
      expect(await balanceOf(tenant)).toBe(990);
      expect((await submit(tenant, { number: '+2250505050505' }, headers).expect(422)).body.message).toBe('cle_idempotence_reutilisee');
    });

    it('with a sandbox key: records marked sandbox, nothing debited; the sandbox recipients end as their messages do, others from the numbering plan', async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${api_key}` };
      const lookups = await lookedUp(sandbox, ['+2250700000001', '+2250700000002', '+2250700000003', '+2250707070707']);
      const common = { amount: 0, sandbox: true, provider: 'sandbox' };
      expect(lookups).toEqual([
        expect.objectContaining({ ...common, number: '+2250700000001', status: 'completed', reachable: 'reachable', error: null }),
        expect.objectContaining({ ...common, number: '+2250700000002', status: 'completed', reachable: 'absent', error: null }),
        expect.objectContaining({
          ...common,
          number: '+2250700000003',
          status: 'failed',
          reachable: null,
          error: 'sandbox: numéro de test dont la recherche échoue toujours',
        }),
        expect.objectContaining({
          ...common,
          number: '+2250707070707',
          status: 'completed',
          reachable: 'unknown',
          network_name: "Orange Côte d'Ivoire",
        }),
      ]);
      // never debited, so the failed lookup has nothing to refund
      expect(await balanceOf(tenant)).toBe(1000);
      expect(await ledgerOf(tenant)).toEqual([]);
    });
  });

  describe('the local provider', () => {
    it.each([
      ['+2250707070707', 'CI', '61203', "Orange Côte d'Ivoire"],
      ['+2250505050505', 'CI', '61205', "MTN Côte d'Ivoire"],
      ['+2250101010101', 'CI', '61202', "Moov Africa Côte d'Ivoire"],
      ['+221771234567', 'SN', '60801', 'Orange Sénégal'],
      ['+221781234567', 'SN', '60801', 'Orange Sénégal'],
      ['+221761234567', 'SN', '60802', 'Free Sénégal'],
      ['+221701234567', 'SN', '60803', 'Expresso Sénégal'],
      ['+237671234567', 'CM', '62401', 'MTN Cameroon'],
      ['+237652123456', 'CM', '62401', 'MTN Cameroon'],
      ['+237682123456', 'CM', '62401', 'MTN Cameroon'],
      ['+237691234567', 'CM', '62402', 'Orange Cameroun'],
      ['+237657123456', 'CM', '62402', 'Orange Cameroun'],
      ['+33607123456', 'FR', '20801', 'Orange France'],
      ['+33612345678', 'FR', '20810', 'SFR'],
      ['+33662345678', 'FR', '20820', 'Bouygues Telecom'],
      ['+33651234567', 'FR', '20815', 'Free Mobile'],
    ])('answers %s: valid, in %s, allocated to %s (%s), reachability unknown', async (number, country, mccmnc, network) => {
      const tenant = await createTenant(t);
      const [lookup] = await lookedUp(tenant, [number]);
      expect(lookup).toEqual({
        id: expect.stringMatching(UUID),
        company_id: tenant.accountId,
        lot: expect.any(String),
        external_id: null,
        number,
        status: 'completed',
        valid: true,
        reachable: 'unknown',
        ported: null,
        roaming: null,
        country,
        mccmnc,
        mcc: mccmnc.slice(0, 3),
        mnc: mccmnc.slice(3),
        network_name: network,
        original_mccmnc: mccmnc,
        original_network_name: network,
        roaming_country: null,
        roaming_mccmnc: null,
        provider: 'local',
        provider_id: null,
        provider_status: 'MOBILE',
        error: null,
        amount: country === 'FR' ? 12 : 10,
        webhook_url: null,
        webhook_response: null,
        created_by: tenant.userId,
        created_at: expect.stringMatching(TIME),
        done_at: expect.stringMatching(TIME),
        sandbox: false,
      });
    });

    it('names no network for a fixed line, and says so in provider_status', async () => {
      const tenant = await createTenant(t);
      const [lookup] = await lookedUp(tenant, ['+33149525252']);
      expect(lookup).toMatchObject({ status: 'completed', valid: true, country: 'FR', mccmnc: null, network_name: null, provider_status: 'FIXED_LINE' });
    });
  });

  describe('GET', () => {
    it('reads a lookup by id or by lot; 404 Non trouvé for an unknown, malformed or foreign one', async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      const batch = (await submit(tenant, { numbers: ['+2250707070707', '+2250505050505'] }).expect(200)).body.data;
      expect((await read(tenant, batch.lookups[1].id).expect(200)).body).toMatchObject({ status: 200, message: 'succès', data: { number: '+2250505050505' } });
      expect((await read(tenant, batch.lot).expect(200)).body.data.number).toBe('+2250707070707');
      const notFound = { status: 404, message: 'Non trouvé', errors: ['id: aucune recherche HLR pour cet identifiant ou ce lot'] };
      expect((await read(other, batch.lookups[0].id).expect(404)).body).toEqual(notFound);
      expect((await read(tenant, 'nope').expect(404)).body).toEqual(notFound);
      expect((await read(tenant, '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10').expect(404)).body).toEqual(notFound);
    });

    it("keeps to the key's mode: a live lookup is 404 to a sandbox key and a sandbox one to a live key, and each lists its own", async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${api_key}` };
      const live = (await submit(tenant, { number: '+2250707070707' }).expect(200)).body.data;
      const test = (await submit(sandbox, { number: '+2250505050505' }).expect(200)).body.data;
      await t.drain(HLR_QUEUE);

      const notFound = { status: 404, message: 'Non trouvé', errors: ['id: aucune recherche HLR pour cet identifiant ou ce lot'] };
      for (const [reader, own, other] of [
        [tenant, live, test],
        [sandbox, test, live],
      ] as const) {
        expect((await read(reader, own.lookups[0].id).expect(200)).body.data.id).toBe(own.lookups[0].id);
        expect((await read(reader, own.lot).expect(200)).body.data.id).toBe(own.lookups[0].id);
        expect((await read(reader, other.lookups[0].id).expect(404)).body).toEqual(notFound);
        expect((await read(reader, other.lot).expect(404)).body).toEqual(notFound);
        expect((await list(reader).expect(200)).body.data.items.map((item: { id: string }) => item.id)).toEqual([own.lookups[0].id]);
      }
    });

    it('lists newest first with the lot and status filters, paging by cursor', async () => {
      const tenant = await createTenant(t);
      await t.app.get(JobRunner).pause(HLR_QUEUE);
      let first: { lot: string; lookups: Array<{ id: string }> };
      let second: { lot: string; lookups: Array<{ id: string }> };
      try {
        first = (await submit(tenant, { numbers: ['+2250707070701', '+2250707070702'] }).expect(200)).body.data;
        second = (await submit(tenant, { numbers: ['+2250707070703'] }).expect(200)).body.data;
        const pending = (await list(tenant, '?status=pending').expect(200)).body.data;
        expect(pending.items.map((item: { id: string }) => item.id)).toEqual([second.lookups[0]!.id, first.lookups[1]!.id, first.lookups[0]!.id]);
      } finally {
        t.app.get(JobRunner).resume(HLR_QUEUE);
      }
      await t.drain(HLR_QUEUE);
      expect((await list(tenant, '?status=pending').expect(200)).body.data).toEqual({ items: [], next_cursor: null, has_more: false });

      const page1 = (await list(tenant, `?lot=${first.lot}&limit=1`).expect(200)).body.data;
      expect(page1).toMatchObject({ items: [{ id: first.lookups[1]!.id, status: 'completed' }], has_more: true });
      const page2 = (await list(tenant, `?lot=${first.lot}&limit=1&cursor=${page1.next_cursor}`).expect(200)).body.data;
      expect(page2).toEqual({ items: [expect.objectContaining({ id: first.lookups[0]!.id })], next_cursor: null, has_more: false });
      expect((await list(tenant, `?lot=${second.lot}&limit=1&cursor=${page1.next_cursor}`).expect(400)).body).toEqual(invalid('cursor: curseur invalide'));
      expect((await list(tenant, '?status=done').expect(400)).body).toEqual(invalid('status: doit valoir pending, completed ou failed'));
      expect((await list(tenant, '?limit=0').expect(400)).body).toEqual(invalid('limit: doit être un entier compris entre 1 et 100'));
    });
  });

  describe('the worker', () => {
    it('takes up a lookup whose lease ran out under a dead instance, and completes it once', async () => {
      const tenant = await createTenant(t);
      await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url('/taken-up'), events: ['hlr.completed'] }).expect(200);
      const jobs = t.app.get(JobRunner);
      await jobs.pause(HLR_QUEUE);
      let id: string;
      try {
        id = (await submit(tenant, { number: '+2250707070707' }).expect(200)).body.data.lookups[0].id;
        // an instance claimed it and was killed before recording the answer
        await t.database.run((sql) =>
          sql.run('UPDATE hlr_lookup SET claimed_by = ?, attempts = 1, available_at = ? WHERE id = ?', ['dead-host:1:00000000', new Date(Date.now() + 60_000), id]),
        );
      } finally {
        jobs.resume(HLR_QUEUE);
      }
      await t.drain(HLR_QUEUE);
      expect((await read(tenant, id).expect(200)).body.data.status).toBe('pending');

      t.clock.advance(61);
      await t.drain(HLR_QUEUE);
      await t.drain(HLR_QUEUE);
      expect((await read(tenant, id).expect(200)).body.data).toMatchObject({ status: 'completed', network_name: "Orange Côte d'Ivoire" });
      const row = await t.database.run((sql) => sql.get<{ attempts: number; available_at: unknown }>('SELECT attempts, available_at FROM hlr_lookup WHERE id = ?', [id]));
      expect({ attempts: Number(row!.attempts), available_at: row!.available_at }).toEqual({ attempts: 2, available_at: null });
      const events = await t.database.run((sql) => sql.all("SELECT id FROM webhook_event WHERE subject_id = ? AND type = 'hlr.completed'", [id]));
      expect(events).toHaveLength(1);
      expect(await ledgerOf(tenant)).toEqual([{ kind: 'debit', amount: -1000, reference_type: 'hlr' }]);
      await until(() => receiver.at('/taken-up'), (received) => received.length === 1);
    });

    it('sends one hlr.completed per lookup to the request webhook_url, signed, and keeps the attempt on the lookup', async () => {
      const tenant = await createTenant(t);
      const batch = (
        await submit(tenant, { numbers: ['+2250707070707', '+221771234567'], webhook_url: receiver.url('/hlr-hook'), external_id: 'hook-1' }).expect(200)
      ).body.data;
      await t.drain(HLR_QUEUE);
      const hooks = await until(() => receiver.at('/hlr-hook'), (received) => received.length >= 2);
      const bodies = hooks.map((hook) => JSON.parse(hook.body) as { type: string; data: { id: string; status: string; external_id: string } });
      expect(bodies.map((body) => body.type)).toEqual(['hlr.completed', 'hlr.completed']);
      expect(bodies.map((body) => body.data.id).sort()).toEqual(batch.lookups.map((lookup: { id: string }) => lookup.id).sort());
      expect(bodies.every((body) => body.data.status === 'completed' && body.data.external_id === 'hook-1')).toBe(true);
      expect(hooks[0]!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(hooks[0]!.headers['webhook-event']).toBe('hlr.completed');
      const lookup = await until(
        async () => (await read(tenant, batch.lookups[0].id).expect(200)).body.data,
        (data) => data.webhook_response !== null,
      );
      expect(JSON.parse(lookup.webhook_response)).toMatchObject({ type: 'hlr.completed', status_code: 200, attempt: 1 });
    });

    it('sends hlr.completed to the account webhook that subscribes to it', async () => {
      const tenant = await createTenant(t);
      await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url('/account-hlr'), events: ['hlr.completed'] }).expect(200);
      await submit(tenant, { number: '+237671234567' }).expect(200);
      await t.drain(HLR_QUEUE);
      const [hook] = await until(() => receiver.at('/account-hlr'), (received) => received.length >= 1);
      expect(JSON.parse(hook!.body)).toMatchObject({ type: 'hlr.completed', api_version: 'v1', data: { number: '+237671234567', mccmnc: '62401', company_id: tenant.accountId } });
    });
  });
});
