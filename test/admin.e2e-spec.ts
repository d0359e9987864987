import { Webhook } from 'standardwebhooks';
import type { Test } from 'supertest';
import { OperatorKeyService } from '../src/admin/operator-key.service.js';
import { newId } from '../src/common/ids.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { createOperator, createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const OPERATOR_ONLY = { status: 403, message: 'acces_refuse', errors: ["Authorization: route réservée aux clés d'opérateur (mk_op_…)"] };
const ACCOUNT_ONLY = { status: 403, message: 'acces_refuse', errors: ["Authorization: une clé d'opérateur n'ouvre que /v1/admin"] };
const UNAUTHORIZED = { status: 401, message: 'Non autorisé' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `/v1/admin`: the operator's interface, opened by operator keys only (SPEC-3 §0). */
describe('/v1/admin', () => {
  let t: TestApp;
  let operator: string;
  let tenant: Tenant;

  const signed = (call: Test, auth: string | null) => (auth === null ? call : call.set('Authorization', auth));
  const as = (auth: string | null) => ({
    get: (path: string, query: Record<string, string> = {}) => signed(t.http().get(path).query(query), auth),
    post: (path: string, body?: object, headers: Record<string, string> = {}) => {
      const call = signed(t.http().post(path).set(headers), auth);
      return body === undefined ? call : call.send(body);
    },
  });
  const requestSender = (owner: Tenant, name: string) =>
    t.http().post('/v1/sender').set('Authorization', owner.auth).send({ name, use_case: 'Codes de connexion de nos clients' }).expect(201);
  const ledgerOf = (accountId: string) =>
    t.database.run((sql) => sql.all<{ kind: string; amount: number | string; description: string | null }>('SELECT kind, amount, description FROM ledger_entry WHERE account_id = ? ORDER BY id', [accountId]));

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    operator = await createOperator(t);
    tenant = await createTenant(t, { name: 'Acme Corp', balance: '100.00' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('credentials', () => {
    it('opens every admin route to an operator key only: 401 without a valid credential, 403 for an account credential', async () => {
      const sender = (await requestSender(tenant, 'MATRICE')).body.data.id as string;
      const testKey = `Bearer ${(await t.admin.createApiKey(tenant.userId, true)).api_key}`;
      const jwt = `Bearer ${(await t.admin.issueToken(tenant.userId)).token}`;
      const routes: Array<[string, (auth: string | null) => Promise<{ status: number; body: unknown }>, number]> = [
        ['GET /v1/admin/accounts', (auth) => as(auth).get('/v1/admin/accounts'), 200],
        ['POST /v1/admin/accounts/{id}/credit', (auth) => as(auth).post(`/v1/admin/accounts/${tenant.accountId}/credit`, { amount: 1 }), 200],
        ['GET /v1/admin/senders', (auth) => as(auth).get('/v1/admin/senders', { status: 'pending' }), 200],
        ['POST /v1/admin/senders/{id}/reject', (auth) => as(auth).post(`/v1/admin/senders/${sender}/reject`, { reason: 'Non' }), 200],
      ];
      const unknownOperatorKey = `Bearer mk_op_${'A'.repeat(43)}`;

      for (const [route, call, success] of routes) {
        const refusals = {
          none: (await call(null)).body,
          unknown: (await call(unknownOperatorKey)).body,
          malformed: (await call('Bearer mk_op_short')).body,
          live: (await call(tenant.auth)).body,
          sandbox: (await call(testKey)).body,
          jwt: (await call(jwt)).body,
        };
        expect({ route, ...refusals }).toEqual({
          route,
          none: UNAUTHORIZED,
          unknown: UNAUTHORIZED,
          malformed: UNAUTHORIZED,
          live: OPERATOR_ONLY,
          sandbox: OPERATOR_ONLY,
          jwt: OPERATOR_ONLY,
        });
        expect({ route, status: (await call(operator)).status }).toEqual({ route, status: success });
      }
    });

    it('refuses an operator key on every account route with 403, and an unknown one with 401', async () => {
      const calls = [
        t.http().get('/v1/account').set('Authorization', operator),
        t.http().post('/v1/otp/send').set('Authorization', operator).send(smsBody('+2250707070707')),
        t.http().get('/v1/sms/out').set('Authorization', operator),
        t.http().get('/v1/balance').set('Authorization', operator),
      ];
      for (const call of calls) expect((await call).body).toEqual(ACCOUNT_ONLY);
      expect((await t.http().get('/v1/account').set('Authorization', `Bearer mk_op_${'B'.repeat(43)}`)).body).toEqual(UNAUTHORIZED);
    });

    it('stops a revoked operator key', async () => {
      const service = t.app.get(OperatorKeyService);
      const created = await service.create('Temporaire');
      await service.revoke(created.key_id);

      expect((await as(`Bearer ${created.operator_key}`).get('/v1/admin/accounts')).body).toEqual(UNAUTHORIZED);
      await expect(service.revoke(created.key_id)).rejects.toThrow(`no active operator key ${created.key_id}`);
    });

    it('documents the operator key as the only security of the admin routes, under the Admin tag', async () => {
      const document = (await t.http().get('/docs-json').expect(200)).body as {
        paths: Record<string, Record<string, { tags: string[]; security: unknown; responses: Record<string, unknown> }>>;
        components: { securitySchemes: Record<string, unknown> };
      };
      const admin = Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/admin'));
      expect(admin.map(([path]) => path).sort()).toEqual([
        '/v1/admin/accounts',
        '/v1/admin/accounts/{id}/credit',
        '/v1/admin/connectors',
        '/v1/admin/connectors/{id}/drain',
        '/v1/admin/connectors/{id}/enable',
        '/v1/admin/messages/{uniq_id}',
        '/v1/admin/routes',
        '/v1/admin/routes/resolve',
        '/v1/admin/senders',
        '/v1/admin/senders/{id}/approve',
        '/v1/admin/senders/{id}/reject',
      ]);
      for (const [, item] of admin) {
        for (const operation of Object.values(item)) {
          expect(operation).toMatchObject({ tags: ['Admin'], security: [{ 'operator-key': [] }] });
          expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
        }
      }
      expect(document.paths['/v1/account']!.get!.security).toEqual([{ jwt: [] }, { 'api-key': [] }]);
      expect(document.components.securitySchemes['operator-key']).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    });
  });

  describe('GET /v1/admin/accounts', () => {
    it('lists every account newest first, in pages, with its balance', async () => {
      const [older, newer] = [await createTenant(t, { name: 'Page Un' }), await createTenant(t, { name: 'Page Deux' })];

      const first = (await as(operator).get('/v1/admin/accounts', { limit: '1' }).expect(200)).body;
      const second = (await as(operator).get('/v1/admin/accounts', { limit: '1', cursor: first.data.next_cursor }).expect(200)).body;

      expect(first).toEqual({
        status: 200,
        message: 'succès',
        data: {
          items: [
            {
              id: newer.accountId,
              name: 'Page Deux',
              email: null,
              phone: null,
              balance: 1000,
              currency: 'XOF',
              created_by: newer.userId,
              created_at: expect.stringMatching(TIME),
            },
          ],
          next_cursor: expect.any(String),
          has_more: true,
        },
      });
      expect(second.data.items.map((account: { id: string }) => account.id)).toEqual([older.accountId]);
    });

    it('finds accounts by the start of their name or e-mail, case ignored, or by id; % and _ are literal', async () => {
      const boutique = await t.admin.createAccount({ name: 'Boutique Awa', email: 'contact@awa.example', sender: 'AWA' });
      await t.admin.createAccount({ name: 'Boutique_Bis', sender: 'BIS' });
      const ids = async (q: string) => (await as(operator).get('/v1/admin/accounts', { q }).expect(200)).body.data.items.map((account: { name: string }) => account.name);

      expect(await ids('boutique')).toEqual(['Boutique_Bis', 'Boutique Awa']);
      expect(await ids('BOUTIQUE A')).toEqual(['Boutique Awa']);
      expect(await ids('contact@awa')).toEqual(['Boutique Awa']);
      expect(await ids(boutique.account_id)).toEqual(['Boutique Awa']);
      expect(await ids('Boutique_')).toEqual(['Boutique_Bis']);
      expect(await ids('%')).toEqual([]);
      await t.admin.createAccount({ name: 'Société Générale', sender: 'SG' });
      expect(await ids('société')).toEqual(['Société Générale']);
      expect(await ids('awa')).toEqual([]);
    });

    it('refuses a bad filter, limit or cursor', async () => {
      expect((await as(operator).get('/v1/admin/accounts', { q: 'x'.repeat(101) })).body).toEqual(invalid('q: doit faire de 1 à 100 caractères'));
      expect((await as(operator).get('/v1/admin/accounts', { limit: '0' })).body).toEqual(invalid('limit: doit être un entier compris entre 1 et 100'));
      const cursor = (await as(operator).get('/v1/admin/accounts', { limit: '1' })).body.data.next_cursor as string;
      expect((await as(operator).get('/v1/admin/accounts', { limit: '1', q: 'a', cursor })).body).toEqual(invalid('cursor: curseur invalide'));
    });
  });

  describe('POST /v1/admin/accounts/{id}/credit', () => {
    const credit = (accountId: string, body: object, key?: string) =>
      as(operator).post(`/v1/admin/accounts/${accountId}/credit`, body, key === undefined ? {} : { 'Idempotency-Key': key });

    it('writes a credit ledger row, adds to the balance and answers the row', async () => {
      const owner = await createTenant(t, { balance: '10.00' });

      const res = await credit(owner.accountId, { amount: 2500.5, description: 'Virement du 22 novembre' }).expect(200);

      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: {
          id: expect.any(Number),
          type: 'credit',
          amount: 2500.5,
          balance_after: 2510.5,
          reference_type: 'admin',
          reference_id: null,
          lot: null,
          description: 'Virement du 22 novembre',
          created_by: null,
          created_at: expect.stringMatching(TIME),
        },
      });
      const seen = (await t.http().get('/v1/balance/transactions').set('Authorization', owner.auth).expect(200)).body.data.items;
      expect(seen[0]).toEqual(res.body.data);
      expect((await t.http().get('/v1/balance').set('Authorization', owner.auth)).body.data.balance).toBe(2510.5);
      expect((await credit(owner.accountId, { amount: 1 }).expect(200)).body.data.description).toBe('Crédit du compte');
    });

    it('re-arms balance.low, as account:credit does', async () => {
      const owner = await createTenant(t, { balance: '10.00' });
      await t.http().put('/v1/balance/alert').set('Authorization', owner.auth).send({ threshold: 8 }).expect(200);
      await t.http().post('/v1/otp/send').set('Authorization', owner.auth).send(smsBody('+2250707070808')).expect(200);
      const armed = async () =>
        Number((await t.database.run((sql) => sql.get<{ armed: number | string }>('SELECT low_balance_armed AS armed FROM account WHERE id = ?', [owner.accountId])))!.armed);
      expect(await armed()).toBe(0);

      await credit(owner.accountId, { amount: 5 }).expect(200);

      expect(await armed()).toBe(1);
    });

    it('replays the answer of an Idempotency-Key without a second credit; another body or account is 422', async () => {
      const owner = await createTenant(t, { balance: '0.00' });
      const key = `credit-${newId()}`;

      const first = await credit(owner.accountId, { amount: 50 }, key).expect(200);
      const replay = await credit(owner.accountId, { amount: 50 }, key).expect(200);
      const otherBody = await credit(owner.accountId, { amount: 60 }, key);
      const otherAccount = await credit(tenant.accountId, { amount: 50 }, key);

      expect(replay.body).toEqual(first.body);
      const reused = { status: 422, message: 'cle_idempotence_reutilisee', errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'] };
      expect(otherBody.body).toEqual(reused);
      expect(otherAccount.body).toEqual(reused);
      expect(await ledgerOf(owner.accountId)).toEqual([
        { kind: 'opening', amount: 0, description: null },
        { kind: 'credit', amount: 5000, description: null },
      ]);
    });

    it('credits exactly once per key, and every credit once, under concurrent requests', async () => {
      const owner = await createTenant(t, { balance: '0.00' });
      const sameKey = `same-${newId()}`;

      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () => credit(owner.accountId, { amount: 7 }, sameKey)),
        ...Array.from({ length: 10 }, (_, n) => credit(owner.accountId, { amount: 1.25 }, `distinct-${n}-${newId()}`)),
      ]);

      const same = answers.slice(0, 10);
      expect(same.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
      for (const answer of same) expect([200, 409]).toContain(answer.status);
      expect(answers.slice(10).map((answer) => answer.status)).toEqual(Array(10).fill(200));
      const ledger = await ledgerOf(owner.accountId);
      expect(ledger.filter((row) => row.kind === 'credit').map((row) => Number(row.amount)).sort((a, b) => a - b)).toEqual([...Array(10).fill(125), 700]);
      expect((await t.http().get('/v1/balance').set('Authorization', owner.auth)).body.data.balance).toBe(19.5);
      expect(await t.admin.audit(owner.accountId)).toEqual({ balance: 19.5, ledger_sum: 19.5, consistent: true });
    });

    it('refuses a bad amount or description, and an unknown or malformed account, storing nothing', async () => {
      const owner = await createTenant(t, { balance: '1.00' });
      const amountError = "amount: doit être un montant supérieur à 0 et d'au plus 1000000000, avec au plus 2 décimales";

      for (const amount of [0, -5, 1.234, '5', 1_000_000_001]) {
        expect((await credit(owner.accountId, { amount })).body).toEqual(invalid(amountError));
      }
      expect((await credit(owner.accountId, {})).body).toEqual(invalid('amount: est obligatoire'));
      expect((await credit(owner.accountId, { amount: null })).body).toEqual(invalid('amount: est obligatoire'));
      expect((await credit(owner.accountId, { amount: 1, description: '' })).body).toEqual(invalid('description: doit faire de 1 à 255 caractères'));
      expect((await credit(newId(), { amount: 1 })).body).toEqual({ status: 404, message: 'Compte non trouvé' });
      expect((await credit('pas-un-compte', { amount: 1 })).body).toEqual({ status: 404, message: 'Compte non trouvé' });
      expect(await ledgerOf(owner.accountId)).toEqual([{ kind: 'opening', amount: 100, description: null }]);
    });
  });

  describe('/v1/admin/senders', () => {
    let receiver: WebhookReceiver;
    let secret: string;
    let owner: Tenant;

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      owner = await createTenant(t);
      const webhook = await t
        .http()
        .put('/v1/account/webhook')
        .set('Authorization', owner.auth)
        .send({ url: receiver.url('/hooks'), events: ['sender.approved', 'sender.rejected'] })
        .expect(200);
      secret = webhook.body.data.secret as string;
    });
    afterAll(async () => {
      await receiver?.stop();
    });

    it("lists every account's senders waiting for review, newest first, in pages", async () => {
      const other = await createTenant(t);
      const first = (await requestSender(owner, 'ATTENTE')).body.data;
      const second = (await requestSender(other, 'AUTRE')).body.data;

      const pending = (await as(operator).get('/v1/admin/senders', { status: 'pending', limit: '100' }).expect(200)).body.data;
      const page = (await as(operator).get('/v1/admin/senders', { status: 'pending', limit: '1' }).expect(200)).body.data;
      const every = (await as(operator).get('/v1/admin/senders', { limit: '100' }).expect(200)).body.data.items as Array<{ id: string; status: string }>;

      const ids = pending.items.map((sender: { id: string }) => sender.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect(ids.indexOf(first.id)).toBeGreaterThan(-1);
      expect(pending.items.every((sender: { status: string }) => sender.status === 'pending')).toBe(true);
      expect(pending.items.find((sender: { id: string }) => sender.id === first.id)).toEqual(first);
      expect(page).toEqual({ items: [pending.items[0]], next_cursor: expect.any(String), has_more: true });
      expect(every.some((sender) => sender.status === 'approved')).toBe(true);
      expect((await as(operator).get('/v1/admin/senders', { status: 'waiting' })).body).toEqual(invalid('status: doit valoir pending, approved ou rejected'));
    });

    it('approves and rejects with the effects and the signed events of sender:approve and sender:reject', async () => {
      const approved = (await requestSender(owner, 'OUI')).body.data.id as string;
      const rejected = (await requestSender(owner, 'NON')).body.data.id as string;

      const approval = await as(operator).post(`/v1/admin/senders/${approved}/approve`).expect(200);
      const rejection = await as(operator).post(`/v1/admin/senders/${rejected}/reject`, { reason: 'Marque déposée par un tiers' }).expect(200);
      await t.drain(WEBHOOK_QUEUE);
      await until(() => receiver.received.length, (count) => count >= 2);

      expect(approval.body).toEqual({
        status: 200,
        message: 'succès',
        data: expect.objectContaining({ id: approved, status: 'approved', rejection_reason: null, reviewed_at: expect.stringMatching(TIME) }),
      });
      expect(rejection.body.data).toMatchObject({ id: rejected, status: 'rejected', rejection_reason: 'Marque déposée par un tiers' });
      const events = receiver.received.map((hook) => new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as Record<string, unknown>);
      expect(events).toEqual([
        expect.objectContaining({ type: 'sender.approved', data: { id: approved, name: 'OUI', status: 'approved', rejection_reason: null, reviewed_at: expect.any(String) } }),
        expect.objectContaining({ type: 'sender.rejected', data: expect.objectContaining({ id: rejected, status: 'rejected', rejection_reason: 'Marque déposée par un tiers' }) }),
      ]);
      const send = await t.http().post('/v1/otp/send').set('Authorization', owner.auth).send(smsBody('+2250707070909', { sender: 'OUI' }));
      expect(send.status).toBe(200);
    });

    it('refuses to decide twice, a missing reason, and an unknown sender', async () => {
      const id = (await requestSender(owner, 'DEUXFOIS')).body.data.id as string;
      await as(operator).post(`/v1/admin/senders/${id}/approve`).expect(200);
      const conflict = (error: string) => ({ status: 409, message: 'transition_invalide', errors: [error] });

      expect((await as(operator).post(`/v1/admin/senders/${id}/approve`)).body).toEqual(conflict('status: expéditeur déjà approuvé'));
      expect((await as(operator).post(`/v1/admin/senders/${id}/reject`, { reason: 'Trop tard' })).body).toEqual(
        conflict('status: expéditeur déjà approuvé, il ne peut plus être refusé'),
      );
      expect((await as(operator).post(`/v1/admin/senders/${id}/reject`, {})).body).toEqual(invalid('reason: est obligatoire'));
      expect((await as(operator).post(`/v1/admin/senders/${id}/reject`, { reason: '' })).body).toEqual(invalid('reason: doit faire de 1 à 500 caractères'));
      expect((await as(operator).post(`/v1/admin/senders/${newId()}/approve`)).body).toEqual({ status: 404, message: 'Expéditeur non trouvé' });
      expect((await as(operator).post('/v1/admin/senders/pas-un-id/approve')).body).toEqual({ status: 404, message: 'Expéditeur non trouvé' });
    });
  });
});
