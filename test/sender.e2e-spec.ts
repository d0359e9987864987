import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newId } from '../src/common/ids.js';
import { SenderReview } from '../src/sender/sender-review.service.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SENDER_NOT_FOUND = { status: 404, message: 'Expéditeur non trouvé' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const request = (name: string, extra: object = {}) => ({ name, use_case: 'Codes de connexion de nos clients', ...extra });

describe('/v1/sender', () => {
  let t: TestApp;
  let review: SenderReview;
  let tenant: Tenant;
  let stranger: Tenant;

  const ask = (body: object, auth = tenant.auth) => t.http().post('/v1/sender').set('Authorization', auth).send(body);
  const get = (id: string, auth = tenant.auth) => t.http().get(`/v1/sender/${id}`).set('Authorization', auth);
  const list = (query: Record<string, string> = {}, auth = tenant.auth) => t.http().get('/v1/sender').query(query).set('Authorization', auth);
  const withdraw = (id: string, auth = tenant.auth) => t.http().delete(`/v1/sender/${id}`).set('Authorization', auth);
  const makeDefault = (id: string, auth = tenant.auth) => t.http().post(`/v1/sender/${id}/default`).set('Authorization', auth);
  const send = (sender: string, auth = tenant.auth) => t.http().post('/v1/otp/send').set('Authorization', auth).send(smsBody('+2250707070707', { sender }));

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    review = t.app.get(SenderReview);
    tenant = await createTenant(t);
    stranger = await createTenant(t);
  });
  afterAll(() => t?.close());

  describe('POST', () => {
    it('answers 201 succès with a pending sender', async () => {
      const res = await ask(request('MONAPP', { sample_message: 'Votre code MonApp est 123456', countries: ['CI', 'SN', 'CI'] }));

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        status: 201,
        message: 'succès',
        data: {
          id: expect.any(String),
          company_id: tenant.accountId,
          name: 'MONAPP',
          status: 'pending',
          is_default: false,
          use_case: 'Codes de connexion de nos clients',
          sample_message: 'Votre code MonApp est 123456',
          countries: ['CI', 'SN'],
          email: null,
          phone: null,
          rejection_reason: null,
          created_by: tenant.userId,
          created_at: expect.stringMatching(/Z$/),
          reviewed_at: null,
        },
      });
    });

    it('answers 409 deja_existant for a name pending or approved, case ignored', async () => {
      const { id } = (await ask(request('Boutique'))).body.data;

      expect((await ask(request('BOUTIQUE'))).body).toEqual({
        status: 409,
        message: 'deja_existant',
        errors: [`name: un expéditeur de ce nom est déjà en attente ou approuvé (id ${id})`],
      });
      expect((await ask(request('demo'))).status).toBe(409);
      expect((await ask(request('Boutique'), stranger.auth)).status).toBe(201);
    });

    it('takes a name again once its request was rejected', async () => {
      const { id } = (await ask(request('Refuse'))).body.data;
      await review.reject(id, 'Nom trop proche d’une marque');

      const again = await ask(request('REFUSE'));

      expect(again.status).toBe(201);
      expect((await get(id)).body.data).toEqual(expect.objectContaining({ status: 'rejected', rejection_reason: 'Nom trop proche d’une marque' }));
    });

    it.each<[object, string]>([
      [{ use_case: 'Codes de connexion' }, 'name: est obligatoire'],
      [request('Nom beaucoup trop long'), 'name: doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus'],
      [request('Café'), 'name: doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus'],
      [{ name: 'OK' }, 'use_case: est obligatoire'],
      [request('OK', { use_case: 'court' }), 'use_case: doit faire de 10 à 500 caractères'],
      [request('OK', { sample_message: 'x'.repeat(161) }), 'sample_message: ne doit pas dépasser 160 caractères'],
      [request('OK', { countries: ['ci'] }), 'countries: doit être une liste de 1 à 50 codes pays ISO 3166-1 à deux lettres majuscules'],
    ])('answers 400 for %j', async (body, error) => {
      expect((await ask(body)).body).toEqual(invalid(error));
    });
  });

  describe('reads', () => {
    it('lists newest first, by status, in pages', async () => {
      const account = await createTenant(t);
      const first = (await ask(request('UN'), account.auth)).body.data.id;
      const second = (await ask(request('DEUX'), account.auth)).body.data.id;
      await review.approve(second);

      const all = await list({ limit: '2' }, account.auth);
      const next = await list({ limit: '2', cursor: all.body.data.next_cursor }, account.auth);

      expect(all.body.data.items.map((sender: { id: string }) => sender.id)).toEqual([second, first]);
      expect(next.body.data.items.map((sender: { name: string }) => sender.name)).toEqual(['DEMO']);
      expect((await list({ status: 'pending' }, account.auth)).body.data.items.map((sender: { id: string }) => sender.id)).toEqual([first]);
      expect((await list({ status: 'old' }, account.auth)).body).toEqual(invalid('status: doit valoir pending, approved ou rejected'));
    });

    it("answers 404 for an unknown, malformed or another account's sender", async () => {
      const { id } = (await ask(request('ETRANGER'), stranger.auth)).body.data;

      for (const target of [id, randomUUID(), 'nope']) expect((await get(target)).body).toEqual(SENDER_NOT_FOUND);
    });
  });

  describe('sending', () => {
    it('refuses a pending or rejected sender, and sends with it once approved', async () => {
      const { id } = (await ask(request('ATTENTE'))).body.data;

      expect((await send('attente')).body).toEqual(invalid('sender: expéditeur non approuvé'));
      await review.approve(id);
      expect((await send('attente')).status).toBe(200);
      expect((await send('INCONNU')).body).toEqual(invalid('sender: expéditeur inconnu'));
    });
  });

  describe('DELETE and default', () => {
    it('withdraws a pending or rejected request, never an approved sender', async () => {
      const pending = (await ask(request('RETIRE'))).body.data.id;
      const rejected = (await ask(request('REJETE'))).body.data.id;
      await review.reject(rejected, 'Non');

      expect((await withdraw(pending)).body).toEqual({ status: 200, message: 'success' });
      expect((await withdraw(rejected)).body).toEqual({ status: 200, message: 'success' });
      expect((await get(pending)).body).toEqual(SENDER_NOT_FOUND);
      expect((await withdraw(tenant.senderId)).body).toEqual({
        status: 409,
        message: 'transition_invalide',
        errors: ['status: seul un expéditeur en attente ou refusé peut être retiré'],
      });
      expect((await withdraw(randomUUID())).body).toEqual(SENDER_NOT_FOUND);
    });

    it('makes an approved sender the only default one, which sends that name no sender use', async () => {
      const account = await createTenant(t);
      const { id } = (await ask(request('NOUVEAU'), account.auth)).body.data;

      expect((await makeDefault(id, account.auth)).body).toEqual({
        status: 409,
        message: 'transition_invalide',
        errors: ['status: seul un expéditeur approuvé peut être celui par défaut'],
      });
      await review.approve(id);
      const res = await makeDefault(id, account.auth);

      expect(res.body.data).toEqual(expect.objectContaining({ id, is_default: true, status: 'approved' }));
      expect((await get(account.senderId, account.auth)).body.data.is_default).toBe(false);
      const sent = await t.http().post('/v1/otp/send').set('Authorization', account.auth).send(smsBody('+2250707070708'));
      await t.deliver();
      const sms = await t.http().get(`/v1/sms/out/${sent.body.data.uniq_id}`).set('Authorization', account.auth);
      expect(sms.body.data.sender).toEqual(expect.objectContaining({ id, name: 'NOUVEAU' }));
      expect((await makeDefault(id, tenant.auth)).body).toEqual(SENDER_NOT_FOUND);
    });
  });

  describe('review', () => {
    it('signs and sends sender.approved and sender.rejected to the account webhook', async () => {
      const receiver = await new WebhookReceiver().start();
      try {
        const account = await createTenant(t);
        const put = await t
          .http()
          .put('/v1/account/webhook')
          .set('Authorization', account.auth)
          .send({ url: receiver.url('/senders'), events: ['sender.approved', 'sender.rejected'] });
        const secret = put.body.data.secret as string;
        const approved = (await ask(request('OUI'), account.auth)).body.data.id;
        const rejected = (await ask(request('NON'), account.auth)).body.data.id;

        await review.approve(approved);
        await review.reject(rejected, 'Marque déposée par un tiers');
        await t.drain(WEBHOOK_QUEUE);
        await until(() => receiver.received.length, (count) => count >= 2);

        const events = receiver.received.map((hook) => new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as Record<string, unknown>);
        expect(events).toEqual([
          expect.objectContaining({ type: 'sender.approved', data: { id: approved, name: 'OUI', status: 'approved', rejection_reason: null, reviewed_at: expect.any(String) } }),
          expect.objectContaining({ type: 'sender.rejected', data: expect.objectContaining({ id: rejected, status: 'rejected', rejection_reason: 'Marque déposée par un tiers' }) }),
        ]);
      } finally {
        await receiver.stop();
      }
    });

    it('refuses to review twice, or to approve a name another sender now holds', async () => {
      const first = (await ask(request('DOUBLE'))).body.data.id;
      await review.reject(first, 'Non');
      const second = (await ask(request('DOUBLE'))).body.data.id;
      await review.approve(second);

      const refusal = (status: number, message: string, error: string) => ({ envelope: { status, message, errors: [error] } });
      await expect(review.approve(second)).rejects.toMatchObject(refusal(409, 'transition_invalide', 'status: expéditeur déjà approuvé'));
      await expect(review.reject(second, 'Trop tard')).rejects.toMatchObject(
        refusal(409, 'transition_invalide', 'status: expéditeur déjà approuvé, il ne peut plus être refusé'),
      );
      await expect(review.reject(first, 'Encore')).rejects.toMatchObject(refusal(409, 'transition_invalide', 'status: expéditeur déjà refusé'));
      await expect(review.approve(first)).rejects.toMatchObject(
        refusal(409, 'deja_existant', 'name: un autre expéditeur du compte est en attente ou approuvé sous le nom DOUBLE'),
      );
      await expect(review.reject(first, ' ')).rejects.toMatchObject(refusal(400, 'erreur_de_validation', 'reason: doit faire de 1 à 500 caractères'));
      await expect(review.approve(newId())).rejects.toMatchObject({ envelope: { status: 404, message: 'Expéditeur non trouvé' } });
    });
  });
});
