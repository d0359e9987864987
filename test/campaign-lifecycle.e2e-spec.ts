import { CAMPAIGN_CHUNK, CAMPAIGN_FINISH_POLL_MS, CAMPAIGN_QUEUE, CampaignWorker } from '../src/campaign/campaign.worker.js';
import { JobRunner } from '../src/jobs/job-runner.js';
import { Lease, LeaseLost } from '../src/jobs/lease.js';
import { MessageOutRepository } from '../src/sms/message-out.repository.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const refused = (error: string) => ({ status: 409, message: 'transition_invalide', errors: [error] });
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const LEASE_SECONDS = 60;
const MAX_RECIPIENTS = 1500;

/** `+2250709` followed by `n` on 6 digits: a valid Ivorian mobile number. */
const ci = (n: number) => `+2250709${String(n).padStart(6, '0')}`;
const phones = (from: number, count: number) => Array.from({ length: count }, (_, i) => ci(from + i));

describe('campaign lifecycle', () => {
  let t: TestApp;
  let jobs: JobRunner;
  let worker: CampaignWorker;

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      CAMPAIGN_MAX_RECIPIENTS: String(MAX_RECIPIENTS),
      CAMPAIGN_LEASE_SECONDS: String(LEASE_SECONDS),
    });
    jobs = t.app.get(JobRunner);
    worker = t.app.get(CampaignWorker);
  });
  afterAll(async () => {
    await t?.close();
  });

  const auth = (tenant: Tenant) => ({ Authorization: tenant.auth });
  const create = async (tenant: Tenant, body: object) =>
    (await t.http().post('/v1/campaign').set(auth(tenant)).send({ name: 'Soldes', message: 'Soldes ce week-end', append_opt_out: false, ...body }).expect(201)).body
      .data.id as string;
  const launch = (tenant: Tenant, id: string, body: object = {}, headers: Record<string, string> = {}) =>
    t.http().post(`/v1/campaign/${id}/launch`).set(auth(tenant)).set(headers).send(body);
  const cancel = (tenant: Tenant, id: string, body: object = {}) => t.http().post(`/v1/campaign/${id}/cancel`).set(auth(tenant)).send(body);
  const patch = (tenant: Tenant, id: string, body: object) => t.http().patch(`/v1/campaign/${id}`).set(auth(tenant)).send(body);
  const remove = (tenant: Tenant, id: string) => t.http().delete(`/v1/campaign/${id}`).set(auth(tenant));
  const read = async (tenant: Tenant, id: string) => (await t.http().get(`/v1/campaign/${id}`).set(auth(tenant)).expect(200)).body.data;
  const newGroup = async (tenant: Tenant, members: string[]) => {
    const id = (await t.http().post('/v1/group').set(auth(tenant)).send({ name: `Groupe ${Math.random()}` }).expect(201)).body.data.id as string;
    for (let start = 0; start < members.length; start += 1000) {
      await t.http().post(`/v1/group/${id}/contacts`).set(auth(tenant)).send({ phones: members.slice(start, start + 1000) }).expect(200);
    }
    return id;
  };
  /** The balance, checked equal to the sum of the ledger. */
  const balanceOf = async (tenant: Tenant) =>
    t.database.run(async (sql) => {
      const account = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]);
      const ledger = await sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId]);
      expect(Number(ledger?.total)).toBe(Number(account?.balance));
      return Number(account?.balance) / 100;
    });
  /** The account's ledger rows, oldest first: kind and amount in cents. */
  const ledgerOf = async (tenant: Tenant) =>
    (
      await t.database.run((sql) =>
        sql.all<{ kind: string; amount: number | string }>('SELECT kind, amount FROM ledger_entry WHERE account_id = ? ORDER BY id', [tenant.accountId]),
      )
    ).map((row) => [row.kind, Number(row.amount)]);
  const messagesOf = (campaignId: string) =>
    t.database.run((sql) =>
      sql.all<{ recipient: string; status: string; source: string; lot: string; amount: number | string; message: string }>(
        'SELECT recipient, status, source, lot, amount, message FROM message_out WHERE campaign_id = ?',
        [campaignId],
      ),
    );
  const stored = (tenant: Tenant, campaignId: string) =>
    t.database.run(async (sql) => ({
      recipients: Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM campaign_recipient WHERE campaign_id = ?', [campaignId]))!.n),
      lots: Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ?', [tenant.accountId]))!.n),
      ledger: Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM ledger_entry WHERE account_id = ?', [tenant.accountId]))!.n),
    }));
  const eventsOf = (campaignId: string) =>
    t.database.run(async (sql) =>
      (await sql.all<{ type: string; body: string }>('SELECT type, body FROM webhook_event WHERE subject_id = ? ORDER BY sequence', [campaignId])).map(
        (event) => ({ type: event.type, data: JSON.parse(event.body).data as Record<string, unknown> }),
      ),
    );
  const subscribe = (tenant: Tenant) =>
    t
      .http()
      .put('/v1/account/webhook')
      .set(auth(tenant))
      .send({ url: 'http://127.0.0.1:9/hooks', events: ['campaign.started', 'campaign.completed', 'campaign.cancelled'] })
      .expect(200);
  /** Hands the campaign's messages over and lets the worker see it. */
  const finish = async () => {
    t.resumeDelivery();
    await t.deliver();
    t.clock.advance(CAMPAIGN_FINISH_POLL_MS / 1000);
    await t.drain(CAMPAIGN_QUEUE);
  };

  it('counts a member of an excluded group in exclu_par_groupe each time it is met; a campaign launched before has none', async () => {
    const tenant = await createTenant(t);
    const first = await newGroup(tenant, phones(500, 6));
    const second = await newGroup(tenant, phones(503, 6));
    const left = await newGroup(tenant, [ci(504), ci(505), ci(600)]);
    const id = await create(tenant, { group_ids: [first, second], exclude_group_ids: [left] });

    const { counts } = (await launch(tenant, id).expect(200)).body.data;

    // 12 members met: 504 and 505 twice (excluded each time), 503 twice (a recipient, then doublon)
    expect(counts).toMatchObject({ recipients: 7, excluded: { desinscrit: 0, numero_invalide: 0, doublon: 1, destination_non_prise_en_charge: 0, exclu_par_groupe: 4 } });
    await t.database.run((sql) =>
      sql.run('UPDATE campaign SET excluded = ? WHERE id = ?', [JSON.stringify({ desinscrit: 0, numero_invalide: 0, doublon: 1, destination_non_prise_en_charge: 0 }), id]),
    );
    expect((await read(tenant, id)).counts.excluded).toEqual({ desinscrit: 0, numero_invalide: 0, doublon: 1, destination_non_prise_en_charge: 0, exclu_par_groupe: 0 });
  });

  it('launches now: freezes the audience minus exclusions and opt-outs, debits it, writes every message once, then is done', async () => {
    const tenant = await createTenant(t);
    await subscribe(tenant);
    const main = await newGroup(tenant, phones(0, 300));
    const more = await newGroup(tenant, [...phones(290, 20), ...phones(400, 5)]);
    const excluded = await newGroup(tenant, phones(0, 10));
    await t.http().post('/v1/opt-out').set(auth(tenant)).send({ phones: [ci(20), ci(21)] }).expect(200);
    const id = await create(tenant, { group_ids: [main, more], exclude_group_ids: [excluded] });

    await t.pauseDelivery();
    const launched = (await launch(tenant, id).expect(200)).body;

    const recipients = 300 + 10 + 5 - 10 - 2;
    expect(launched).toMatchObject({ status: 200, message: 'succès' });
    expect(launched.data).toMatchObject({
      status: 'running',
      lot: expect.stringMatching(ULID),
      sender_id: tenant.senderId,
      amount: recipients * 2.5,
      counts: {
        recipients,
        excluded: { desinscrit: 2, numero_invalide: 0, doublon: 10, destination_non_prise_en_charge: 0, exclu_par_groupe: 10 },
        scheduled: recipients,
      },
      launched_at: expect.any(String),
      started_at: expect.any(String),
    });
    // every member met in group_ids is a recipient or counted once in an exclusion
    const excludedTotal = Object.values(launched.data.counts.excluded as Record<string, number>).reduce((sum, count) => sum + count, 0);
    expect(launched.data.counts.recipients + excludedTotal).toBe(300 + 25);
    expect(await balanceOf(tenant)).toBe(1000 - recipients * 2.5);
    const lot = await t.database.run((sql) => sql.get<{ campaign_id: string }>('SELECT campaign_id FROM message_lot WHERE lot = ?', [launched.data.lot]));
    expect(lot).toEqual({ campaign_id: id });

    await t.drain(CAMPAIGN_QUEUE);

    const messages = await messagesOf(id);
    expect(messages).toHaveLength(recipients);
    expect(new Set(messages.map((message) => message.recipient)).size).toBe(recipients);
    expect(messages.filter((message) => [ci(0), ci(9), ci(20), ci(21)].includes(message.recipient))).toEqual([]);
    expect(messages.every((message) => message.source === 'campaign' && message.lot === launched.data.lot && message.status === 'pending')).toBe(true);
    expect((await read(tenant, id)).counts).toMatchObject({ recipients, scheduled: 0, pending: recipients });
    expect((await read(tenant, id)).status).toBe('running');

    await finish();

    const done = await read(tenant, id);
    expect(done).toMatchObject({ status: 'done', completed_at: expect.any(String), counts: { recipients, pending: 0, sent: recipients } });
    expect((await messagesOf(id)).length).toBe(recipients);
    expect((await eventsOf(id)).map((event) => [event.type, event.data.status])).toEqual([
      ['campaign.started', 'running'],
      ['campaign.completed', 'done'],
    ]);
    expect((await launch(tenant, id).expect(409)).body).toEqual(refused('status: la campagne est terminée'));
    expect((await cancel(tenant, id).expect(409)).body).toEqual(refused('status: la campagne est terminée'));
    expect((await patch(tenant, id, { name: 'x' }).expect(409)).body).toEqual(refused('status: la campagne est terminée'));
    expect((await remove(tenant, id).expect(409)).body).toEqual(refused('status: la campagne est terminée'));
  });

  it('personalises each text and appends the unsubscribe link, which counts in segments and cost', async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant, [ci(1000)]);
    await t.http().patch(`/v1/contact/${(await t.http().get('/v1/contact').set(auth(tenant))).body.data.items[0].id}`).set(auth(tenant)).send({ name: 'Awa' }).expect(200);
    const id = await create(tenant, { group_ids: [group], message: `Bonjour ##NAME## ${'a'.repeat(140)}`, append_opt_out: true });

    const data = (await launch(tenant, id).expect(200)).body.data;
    await t.drain(CAMPAIGN_QUEUE);

    const [message] = await messagesOf(id);
    expect(message!.message).toMatch(new RegExp(`^Bonjour Awa a{140}\\nDésabo: http://localhost:3000/u/\\S+$`));
    expect(data.amount).toBe(5);
    expect(Number(message!.amount)).toBe(500);
  });

  it('schedules a campaign with a later send_at and starts it then', async () => {
    const tenant = await createTenant(t);
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(2000, 3))] });
    const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();

    const data = (await launch(tenant, id, { send_at: sendAt }).expect(200)).body.data;
    await t.drain(CAMPAIGN_QUEUE);

    expect(data).toMatchObject({ status: 'scheduled', send_at: sendAt, started_at: null, counts: { scheduled: 3 } });
    expect(await messagesOf(id)).toEqual([]);
    expect((await launch(tenant, id).expect(409)).body).toEqual(refused('status: la campagne est déjà lancée'));

    t.clock.advance(3601);
    await t.pauseDelivery();
    await t.drain(CAMPAIGN_QUEUE);

    expect(await read(tenant, id)).toMatchObject({ status: 'running', started_at: expect.any(String), counts: { pending: 3 } });
    await finish();
    expect((await read(tenant, id)).status).toBe('done');
  });

  it('answers 402 with the cost and the balance when the balance does not cover it, and stores nothing', async () => {
    const tenant = await createTenant(t, { balance: '10.00' });
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(3000, 5))] });
    const before = await stored(tenant, id);

    expect((await launch(tenant, id).expect(402)).body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 12.5, balance: 10 } });

    expect(await stored(tenant, id)).toEqual(before);
    expect(before.recipients).toBe(0);
    expect(await balanceOf(tenant)).toBe(10);
    expect((await read(tenant, id)).status).toBe('draft');
  });

  it('refuses an empty audience, too many recipients, an unknown campaign and a bad send_at', async () => {
    const tenant = await createTenant(t);
    const optedOut = await newGroup(tenant, [ci(4000)]);
    await t.http().post('/v1/opt-out').set(auth(tenant)).send({ phones: [ci(4000)] }).expect(200);
    const empty = await create(tenant, { group_ids: [optedOut] });
    const huge = await create(tenant, { group_ids: [await newGroup(tenant, phones(5000, MAX_RECIPIENTS + 1))] });

    expect((await launch(tenant, empty).expect(400)).body).toEqual(invalid('group_ids: aucun destinataire'));
    expect((await launch(tenant, huge).expect(400)).body).toEqual(invalid(`group_ids: au plus ${MAX_RECIPIENTS} destinataires par campagne`));
    expect((await launch(tenant, empty, { send_at: '2026-01-01T08:00:00' }).expect(400)).body).toEqual(invalid('send_at: date ISO 8601 avec fuseau attendue'));
    expect((await launch(tenant, '0193a3c2-d1e2-7f30-8a4b-5c6d7e8f9a01').expect(404)).body).toEqual({ status: 404, message: 'Campagne non trouvée' });
    expect((await cancel(tenant, 'nope').expect(404)).body).toEqual({ status: 404, message: 'Campagne non trouvée' });
    expect((await read(tenant, huge)).status).toBe('draft');
  });

  it('launches once per Idempotency-Key: the replay answers the same and debits nothing more; another body is 422', async () => {
    const tenant = await createTenant(t);
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(7000, 4))] });

    const first = (await launch(tenant, id, {}, { 'Idempotency-Key': 'launch-1' }).expect(200)).body;
    const again = (await launch(tenant, id, {}, { 'Idempotency-Key': 'launch-1' }).expect(200)).body;
    const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const reused = (await launch(tenant, id, { send_at: sendAt }, { 'Idempotency-Key': 'launch-1' }).expect(422)).body;

    expect(again).toEqual(first);
    expect(reused).toEqual({ status: 422, message: 'cle_idempotence_reutilisee', errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'] });
    expect(await read(tenant, id)).toMatchObject({ status: 'running', send_at: first.data.send_at, lot: first.data.lot });
    expect(await balanceOf(tenant)).toBe(990);
  });

  it("refuses a launch's Idempotency-Key for another campaign's launch, which stays a draft", async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant, phones(7100, 2));
    const [launched, other] = [await create(tenant, { group_ids: [group] }), await create(tenant, { group_ids: [group] })];
    await launch(tenant, launched, {}, { 'Idempotency-Key': 'launch-2' }).expect(200);

    const reused = (await launch(tenant, other, {}, { 'Idempotency-Key': 'launch-2' }).expect(422)).body;

    expect(reused).toEqual({ status: 422, message: 'cle_idempotence_reutilisee', errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'] });
    expect(await read(tenant, other)).toMatchObject({ status: 'draft', lot: null });
  });

  it('refuses to launch a running campaign and to edit or delete a scheduled, a running or a cancelled one, and changes nothing', async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant, phones(9000, 2));
    const scheduled = await create(tenant, { group_ids: [group] });
    const running = await create(tenant, { group_ids: [group] });
    const cancelled = await create(tenant, { group_ids: [group] });
    const ids = [scheduled, running, cancelled];
    const launched = 'status: la campagne est déjà lancée';
    const state = async () => ({
      campaigns: await Promise.all(ids.map((id) => read(tenant, id))),
      stored: await Promise.all(ids.map((id) => stored(tenant, id))),
      balance: await balanceOf(tenant),
    });
    await jobs.pause(CAMPAIGN_QUEUE);
    try {
      await launch(tenant, scheduled, { send_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }).expect(200);
      await launch(tenant, running).expect(200);
      await launch(tenant, cancelled).expect(200);
      await cancel(tenant, cancelled).expect(200);
      const before = await state();
      expect(before.campaigns.map((campaign) => campaign.status)).toEqual(['scheduled', 'running', 'cancelled']);

      expect((await launch(tenant, running).expect(409)).body).toEqual(refused(launched));
      const refusals: Array<[string, string]> = [[scheduled, launched], [running, launched], [cancelled, 'status: campagne déjà annulée']];
      for (const [id, refusal] of refusals) {
        expect((await patch(tenant, id, { name: 'Autre nom' }).expect(409)).body).toEqual(refused(refusal));
        expect((await remove(tenant, id).expect(409)).body).toEqual(refused(refusal));
      }

      expect(await state()).toEqual(before);
    } finally {
      jobs.resume(CAMPAIGN_QUEUE);
    }
  });

  it('cancels a draft (nothing to refund) and a scheduled campaign (everything refunded)', async () => {
    const tenant = await createTenant(t);
    await subscribe(tenant);
    const group = await newGroup(tenant, phones(8000, 4));
    const draft = await create(tenant, { group_ids: [group] });
    const scheduled = await create(tenant, { group_ids: [group] });
    await launch(tenant, scheduled, { send_at: new Date(t.clock.now().getTime() + 7_200_000).toISOString() }).expect(200);
    expect(await balanceOf(tenant)).toBe(990);

    const cancelledDraft = (await cancel(tenant, draft, { reason: 'Brouillon abandonné' }).expect(200)).body;
    const cancelledLaunch = (await cancel(tenant, scheduled).expect(200)).body.data;

    expect(cancelledDraft).toMatchObject({ status: 200, message: 'succès', data: { status: 'cancelled', cancel_reason: 'Brouillon abandonné', refunded: 0 } });
    expect(cancelledLaunch).toMatchObject({ status: 'cancelled', refunded: 10, cancelled_at: expect.any(String), counts: { recipients: 4, scheduled: 0, cancelled: 4 } });
    expect(await balanceOf(tenant)).toBe(1000);
    expect((await eventsOf(scheduled)).map((event) => event.type)).toEqual(['campaign.cancelled']);
    expect((await cancel(tenant, scheduled).expect(409)).body).toEqual(refused('status: campagne déjà annulée'));
    expect((await launch(tenant, draft).expect(409)).body).toEqual(refused('status: campagne déjà annulée'));
    t.clock.advance(7201);
    await t.drain(CAMPAIGN_QUEUE);
    expect(await messagesOf(scheduled)).toEqual([]);
    expect(await balanceOf(tenant)).toBe(1000);
  });

  it('cancelled half-way: refunds exactly the recipients not yet written, once; messages handed over keep their course', async () => {
    const tenant = await createTenant(t, { balance: '5000.00' });
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(10_000, 1200))] });
    await jobs.pause(CAMPAIGN_QUEUE);
    await t.pauseDelivery();
    try {
      await launch(tenant, id).expect(200);
      expect(await balanceOf(tenant)).toBe(5000 - 1200 * 2.5);
      await oneChunk(new Lease('other-instance:1:aaaaaaaa', LEASE_SECONDS * 1000));

      const cancelled = (await cancel(tenant, id, { reason: 'Erreur dans le texte' }).expect(200)).body.data;

      const unsent = 1200 - CAMPAIGN_CHUNK;
      expect(cancelled).toMatchObject({ status: 'cancelled', refunded: unsent * 2.5, counts: { recipients: 1200, pending: CAMPAIGN_CHUNK, cancelled: unsent } });
      expect(await balanceOf(tenant)).toBe(5000 - CAMPAIGN_CHUNK * 2.5);
      expect(await ledgerOf(tenant)).toEqual([
        ['opening', 500_000],
        ['debit', -1200 * 250],
        ['refund', unsent * 250],
      ]);
      expect((await cancel(tenant, id).expect(409)).body).toEqual(refused('status: campagne déjà annulée'));
    } finally {
      jobs.resume(CAMPAIGN_QUEUE);
      t.resumeDelivery();
    }
    await t.drain(CAMPAIGN_QUEUE);
    await t.deliver();
    expect(await messagesOf(id)).toHaveLength(CAMPAIGN_CHUNK);
    expect((await read(tenant, id)).counts).toMatchObject({ sent: CAMPAIGN_CHUNK, cancelled: 1200 - CAMPAIGN_CHUNK });
    expect(await balanceOf(tenant)).toBe(5000 - CAMPAIGN_CHUNK * 2.5);
    expect(await ledgerOf(tenant)).toEqual([
      ['opening', 500_000],
      ['debit', -1200 * 250],
      ['refund', (1200 - CAMPAIGN_CHUNK) * 250],
    ]);
  });

  it('cancels messages held for their delivery window and refunds them', async () => {
    const tenant = await createTenant(t);
    const hour = t.clock.now().getUTCHours();
    const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const window = { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: at(hour + 2), to: at(hour + 3), timezone: 'UTC' };
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(20_000, 6))], delivery_window: window, webhook_url: 'http://127.0.0.1:9/sms' });
    await launch(tenant, id).expect(200);
    await t.drain(CAMPAIGN_QUEUE);
    expect((await messagesOf(id)).map((message) => message.status)).toEqual(Array(6).fill('scheduled'));

    const cancelled = (await cancel(tenant, id).expect(200)).body.data;

    expect(cancelled).toMatchObject({ refunded: 15, counts: { scheduled: 0, cancelled: 6 } });
    expect((await messagesOf(id)).map((message) => message.status)).toEqual(Array(6).fill('cancelled'));
    const smsEvents = await t.database.run((sql) =>
      sql.all<{ type: string; url: string; body: string }>("SELECT type, url, body FROM webhook_event WHERE account_id = ? AND type LIKE 'sms.%'", [tenant.accountId]),
    );
    expect(smsEvents.map((event) => [event.type, event.url, JSON.parse(event.body).data.campaign_id])).toEqual(Array(6).fill(['sms.cancelled', 'http://127.0.0.1:9/sms', id]));
    expect(await balanceOf(tenant)).toBe(1000);
  });

  it('takes up a campaign whose instance died mid-way once its lease runs out, and finishes it once', async () => {
    const tenant = await createTenant(t, { balance: '5000.00' });
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(30_000, 1200))] });
    const dead = new Lease('dead-instance:1:bbbbbbbb', LEASE_SECONDS * 1000);
    await jobs.pause(CAMPAIGN_QUEUE);
    let held;
    try {
      await launch(tenant, id).expect(200);
      await oneChunk(dead);
      [held] = await claim(dead);
      expect(held).toMatchObject({ id, position: CAMPAIGN_CHUNK });
    } finally {
      jobs.resume(CAMPAIGN_QUEUE);
    }

    await t.drain(CAMPAIGN_QUEUE);
    expect(await messagesOf(id)).toHaveLength(CAMPAIGN_CHUNK);

    t.clock.advance(LEASE_SECONDS + 1);
    await t.drain(CAMPAIGN_QUEUE);

    const messages = await messagesOf(id);
    expect(messages).toHaveLength(1200);
    expect(new Set(messages.map((message) => message.recipient)).size).toBe(1200);
    await expect(worker.process([held!], dead)).rejects.toBeInstanceOf(LeaseLost);
    expect(await messagesOf(id)).toHaveLength(1200);
    await finish();
    expect((await read(tenant, id)).status).toBe('done');
  });

  it('goes on from its last chunk at once when its instance fails one, rather than waiting out its lease', async () => {
    const tenant = await createTenant(t, { balance: '5000.00' });
    const id = await create(tenant, { group_ids: [await newGroup(tenant, phones(40_000, 1200))] });
    const repository = t.app.get(MessageOutRepository);
    const insertMany = repository.insertMany;
    let chunks = 0;
    repository.insertMany = function (this: MessageOutRepository, ...args: Parameters<MessageOutRepository['insertMany']>) {
      if (++chunks === 2) return Promise.reject(new Error('disque plein'));
      return insertMany.apply(this, args);
    };
    try {
      await launch(tenant, id).expect(200);
      await t.drain(CAMPAIGN_QUEUE);
      expect(chunks).toBe(2);
      expect(await messagesOf(id)).toHaveLength(CAMPAIGN_CHUNK);
    } finally {
      repository.insertMany = insertMany;
    }

    // the test clock has not moved: without the failed chunk given back, the campaign would wait out its 60 s lease
    await t.drain(CAMPAIGN_QUEUE);
    const messages = await messagesOf(id);
    expect(messages).toHaveLength(1200);
    expect(new Set(messages.map((message) => message.recipient)).size).toBe(1200);
    expect(await balanceOf(tenant)).toBe(5000 - 1200 * 2.5);
    await finish();
    expect((await read(tenant, id)).status).toBe('done');
  });

  it('runs a sandbox campaign with no debit', async () => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const sandbox = { ...tenant, auth: `Bearer ${api_key}` };
    const id = await create(sandbox, { group_ids: [await newGroup(sandbox, phones(40_000, 3))] });

    const data = (await launch(sandbox, id).expect(200)).body.data;
    await t.drain(CAMPAIGN_QUEUE);

    expect(data).toMatchObject({ sandbox: true, amount: 0, status: 'running' });
    expect(await messagesOf(id)).toHaveLength(3);
    expect(await balanceOf(tenant)).toBe(1000);
  });

  /** The worker's claim, as an instance holding `lease` makes it. */
  function claim(lease: Lease) {
    return t.database.transaction((sql) => worker.claim(sql, lease, t.clock.now(), 1));
  }

  /** One claim and one chunk of work by an instance holding `lease`. */
  async function oneChunk(lease: Lease) {
    const claimed = await claim(lease);
    expect(claimed).toHaveLength(1);
    await worker.process(claimed, lease);
  }
});
