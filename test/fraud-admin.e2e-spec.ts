import type { Test } from 'supertest';
import { createOperator, createTenant, type Tenant } from './support/fixtures.js';
import { ciNumber, fraudCalls } from './support/fraud.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PREFIX = '+225070707';
const OTHER_PREFIX = '+225050505';
const NOT_FOUND = { status: 404, message: 'Compte non trouvé' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });

/** `/v1/admin/fraud`: the fraud guard's settings of every account, for the operator (SPEC-3 §3, §0). */
describe('OTP fraud guard: the operator routes', () => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  let operator: string;
  beforeAll(async () => {
    t = await startTestApp();
    calls = fraudCalls(t);
    operator = await createOperator(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const signed = (call: Test, auth: string | null) => (auth === null ? call : call.set('Authorization', auth));
  const as = (auth: string | null) => ({
    get: (path: string, query: Record<string, string> = {}) => signed(t.http().get(path).query(query), auth),
    put: (path: string, body: object, query: Record<string, string> = {}) => signed(t.http().put(path).query(query), auth).send(body),
    post: (path: string, body: object) => signed(t.http().post(path), auth).send(body),
    delete: (path: string) => signed(t.http().delete(path), auth),
  });
  const op = () => as(operator);
  const items = async (path: string, query: Record<string, string>) =>
    (await op().get(path, { limit: '100', ...query }).expect(200)).body.data.items as Array<Record<string, unknown>>;

  it('opens /v1/admin/fraud to operator keys only, and /v1/fraud to account credentials only', async () => {
    const tenant = await createTenant(t);
    const unknownOperatorKey = `Bearer mk_op_${'A'.repeat(43)}`;
    const routes: Array<(auth: string | null) => Test> = [
      (auth) => as(auth).get(`/v1/admin/fraud/accounts/${tenant.accountId}/policy`),
      (auth) => as(auth).put(`/v1/admin/fraud/accounts/${tenant.accountId}/policy`, {}),
      (auth) => as(auth).get('/v1/admin/fraud/list'),
      (auth) => as(auth).post('/v1/admin/fraud/list', { account_id: tenant.accountId, list: 'block', kind: 'country', value: 'UZ' }),
      (auth) => as(auth).get('/v1/admin/fraud/blocks'),
      (auth) => as(auth).get('/v1/admin/fraud/attempts'),
    ];
    for (const call of routes) {
      expect((await call(null)).status).toBe(401);
      expect((await call(unknownOperatorKey)).status).toBe(401);
      expect((await call(tenant.auth)).body).toEqual({ status: 403, message: 'acces_refuse', errors: ["Authorization: route réservée aux clés d'opérateur (mk_op_…)"] });
      expect([200, 201]).toContain((await call(operator)).status);
    }
    expect((await as(operator).get('/v1/fraud/policy')).body).toEqual({ status: 403, message: 'acces_refuse', errors: ["Authorization: une clé d'opérateur n'ouvre que /v1/admin"] });
  });

  describe('an account\'s policy', () => {
    it('reads and changes the policy the account sends under, production and sandbox apart', async () => {
      const tenant = await createTenant(t);
      const path = `/v1/admin/fraud/accounts/${tenant.accountId}/policy`;
      const changed = (await op().put(path, { countries: { allow: ['CI'] } }).expect(200)).body.data;
      expect(changed.countries).toEqual({ allow: ['CI'] });
      expect((await op().get(path).expect(200)).body.data).toEqual(changed);
      expect((await as(tenant.auth).get('/v1/fraud/policy').expect(200)).body.data).toEqual(changed);

      const refused = await calls.send(tenant, '+33612345678');
      expect(refused.status).toBe(403);
      expect(refused.body.data.reasons).toEqual(['country_not_allowed']);

      const sandbox = (await op().get(path, { sandbox: 'true' }).expect(200)).body.data;
      expect(sandbox.countries).toEqual({});
      await op().put(path, { modes: { velocity: 'enforce' } }, { sandbox: 'true' }).expect(200);
      const tester = await t.admin.createApiKey(tenant.userId, true);
      expect((await as(`Bearer ${tester.api_key}`).get('/v1/fraud/policy').expect(200)).body.data.modes.velocity).toBe('enforce');
      expect((await op().get(path).expect(200)).body.data).toEqual(changed);
    });

    it('answers 404 for an account that does not exist, 400 for a bad policy or mode', async () => {
      const tenant = await createTenant(t);
      expect((await op().get('/v1/admin/fraud/accounts/0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01/policy')).body).toEqual(NOT_FOUND);
      expect((await op().put('/v1/admin/fraud/accounts/pas-un-id/policy', { modes: { velocity: 'enforce' } })).body).toEqual(NOT_FOUND);
      const path = `/v1/admin/fraud/accounts/${tenant.accountId}/policy`;
      expect((await op().put(path, { thresholds: { ip_per_hour: 0 } })).body).toEqual(invalid('thresholds.ip_per_hour: doit être compris entre 1 et 100000'));
      expect((await op().get(path, { sandbox: 'oui' })).body).toEqual(invalid('sandbox: doit valoir true ou false'));
      expect((await op().get(path, { mode: 'sandbox' })).body).toEqual(invalid('mode: champ inconnu'));
    });
  });

  describe('lists', () => {
    it("puts an entry on an account's list, which its sends obey and no other account's do", async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      const res = await op().post('/v1/admin/fraud/list', { account_id: tenant.accountId, list: 'block', kind: 'prefix', value: PREFIX, note: 'Pompage' }).expect(201);
      expect(res.body.data).toMatchObject({ account_id: tenant.accountId, sandbox: false, list: 'block', kind: 'prefix', value: PREFIX, note: 'Pompage', created_by: null });

      const refused = await calls.send(tenant, ciNumber(PREFIX, 1));
      expect(refused.status).toBe(403);
      expect(refused.body.data.reasons).toEqual(['in_block_list']);
      await calls.send(other, ciNumber(PREFIX, 1)).expect(200);
      expect((await as(tenant.auth).get('/v1/fraud/list').expect(200)).body.data.items).toEqual([res.body.data]);

      expect((await op().post('/v1/admin/fraud/list', { account_id: tenant.accountId, list: 'block', kind: 'prefix', value: PREFIX })).body).toEqual({
        status: 409,
        message: 'deja_existant',
        errors: [`value: ${PREFIX} est déjà sur la liste block (prefix)`],
      });
      expect((await op().delete(`/v1/admin/fraud/list/${res.body.data.id}`).expect(200)).body).toEqual({ status: 200, message: 'success' });
      expect((await op().delete(`/v1/admin/fraud/list/${res.body.data.id}`)).body).toEqual({ status: 404, message: 'Entrée non trouvée' });
      await calls.send(tenant, ciNumber(PREFIX, 1)).expect(200);
    });

    it('lists the entries of every account, or of one account and mode', async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      const mine = await calls.listEntry(tenant, { list: 'block', kind: 'user_ref', value: 'fraudeur-42' });
      const theirs = (await op().post('/v1/admin/fraud/list', { account_id: other.accountId, list: 'block', kind: 'user_ref', value: 'fraudeur-42' }).expect(201)).body.data;
      const sandboxed = (await op().post('/v1/admin/fraud/list', { account_id: other.accountId, sandbox: true, list: 'allow', kind: 'user_ref', value: 'testeur' }).expect(201)).body
        .data;
      expect(sandboxed.sandbox).toBe(true);

      const everyAccount = await items('/v1/admin/fraud/list', { kind: 'user_ref' });
      expect(everyAccount.map((entry) => entry.id)).toEqual(expect.arrayContaining([mine.id, theirs.id, sandboxed.id]));
      expect(await items('/v1/admin/fraud/list', { account_id: other.accountId })).toEqual([sandboxed, theirs]);
      expect(await items('/v1/admin/fraud/list', { account_id: other.accountId, sandbox: 'false' })).toEqual([theirs]);
      expect(await items('/v1/admin/fraud/list', { account_id: other.accountId, list: 'allow' })).toEqual([sandboxed]);
    });

    it('refuses an entry without an account, or for one that does not exist', async () => {
      const entry = { list: 'block', kind: 'country', value: 'UZ' };
      expect((await op().post('/v1/admin/fraud/list', entry)).body).toEqual(invalid('account_id: est obligatoire'));
      expect((await op().post('/v1/admin/fraud/list', { ...entry, account_id: 'acme' })).body).toEqual(invalid('account_id: doit être un identifiant (UUID)'));
      expect((await op().post('/v1/admin/fraud/list', { ...entry, account_id: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01' })).body).toEqual(NOT_FOUND);
      expect((await op().get('/v1/admin/fraud/list', { account_id: 'acme' })).body).toEqual(invalid('account_id: doit être un identifiant (UUID)'));
    });
  });

  describe('blocks and attempts', () => {
    it("lists every account's blocks and attempts, and lifts a block of any account", async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      for (const owner of [tenant, other]) {
        await calls.setPolicy(owner, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 1 } });
        await calls.send(owner, ciNumber(OTHER_PREFIX, 1)).expect(200);
        expect((await calls.send(owner, ciNumber(OTHER_PREFIX, 2))).status).toBe(403);
      }

      const blocks = await items('/v1/admin/fraud/blocks', { active: 'true', scope: 'prefix' });
      const [block] = await items('/v1/admin/fraud/blocks', { account_id: tenant.accountId });
      expect(block).toMatchObject({ account_id: tenant.accountId, scope: 'prefix', value: OTHER_PREFIX, reason: 'prefix_velocity', active: true });
      expect(blocks.filter((found) => found.value === OTHER_PREFIX).map((found) => found.account_id)).toEqual(expect.arrayContaining([tenant.accountId, other.accountId]));

      const attempts = await items('/v1/admin/fraud/attempts', { reason: 'prefix_velocity' });
      expect(attempts.filter((attempt) => attempt.prefix === OTHER_PREFIX).map((attempt) => attempt.account_id)).toEqual(expect.arrayContaining([tenant.accountId, other.accountId]));
      expect(await items('/v1/admin/fraud/attempts', { account_id: tenant.accountId })).toEqual(await calls.attempts(tenant));

      expect((await op().delete(`/v1/admin/fraud/blocks/${block!.id}`).expect(200)).body).toEqual({ status: 200, message: 'success' });
      await calls.send(tenant, ciNumber(OTHER_PREFIX, 2)).expect(200);
      expect((await calls.send(other, ciNumber(OTHER_PREFIX, 2))).status).toBe(403);
      expect((await op().delete(`/v1/admin/fraud/blocks/${block!.id}`)).body).toEqual({ status: 409, message: 'transition_invalide', errors: ['status: blocage déjà levé ou terminé'] });
      expect((await op().delete('/v1/admin/fraud/blocks/pas-un-id')).body).toEqual({ status: 404, message: 'Blocage non trouvé' });
    });

    it('refuses a bad filter with 400', async () => {
      expect((await op().get('/v1/admin/fraud/attempts', { sandbox: '1' })).body).toEqual(invalid('sandbox: doit valoir true ou false'));
      expect((await op().get('/v1/admin/fraud/blocks', { account_id: '42' })).body).toEqual(invalid('account_id: doit être un identifiant (UUID)'));
    });
  });
});
