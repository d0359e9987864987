import { DataSource } from 'typeorm';
import type { Statement } from '../src/database/statements.js';
import { OutboxRepository } from '../src/delivery/outbox.repository.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { explainable, plansOf, recordStatements } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const HOUR_MS = 3_600_000;
const phoneOf = (n: number) => `+22507${String(100_000_000 + n).slice(1)}`;

/** Every statement of sending, scheduling, promoting and cancelling seeks through an index, on tables holding thousands of rows. */
describe('query plans of bulk sending', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp({ SMS_DUPLICATE_WINDOW_SECONDS: '3600' });
    const send = (tenant: Tenant, body: object) => t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send(body).expect(200);
    const later = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR_MS).toISOString();

    // another tenant fills the tables: contacts in a group, sent and scheduled messages, opt-outs
    const filler = await createTenant(t, { balance: '100000.00' });
    const fillerGroup = (await t.http().post('/v1/group').set('Authorization', filler.auth).send({ name: 'Tous' }).expect(201)).body.data.id;
    for (let start = 0; start < 2000; start += 1000) {
      const contacts = Array.from({ length: 1000 }, (_, n) => ({ phone: phoneOf(start + n), name: `Contact ${start + n}` }));
      await t.http().post('/v1/contact/bulk').set('Authorization', filler.auth).send({ contacts, group_ids: [fillerGroup] }).expect(200);
    }
    await t.http().post('/v1/opt-out').set('Authorization', filler.auth).send({ phones: Array.from({ length: 300 }, (_, n) => phoneOf(n * 3)) }).expect(200);
    await send(filler, { group_ids: [fillerGroup], message: 'Bonjour ##NAME##' });
    await send(filler, { group_ids: [fillerGroup], message: 'Plus tard', send_at: later(5) });
    await t.deliver();
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE message_out, outbox, contact, contact_group_member, opt_out, message_lot'));

    const tenant = await createTenant(t);
    const contact = (await t.http().post('/v1/contact').set('Authorization', tenant.auth).send({ phone: '+2250101010101', name: 'Awa' }).expect(201)).body.data.id;
    const group = (await t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name: 'Clients' }).expect(201)).body.data.id;
    await t.http().post(`/v1/group/${group}/contacts`).set('Authorization', tenant.auth).send({ phones: ['+2250101010102', '+2250101010103'] }).expect(200);
    const recording = recordStatements(t.app.get(DataSource));
    await send(tenant, { to: ['+2250101010101', '+2250101010109'], contact_ids: [contact], group_ids: [group], message: 'Bonjour ##NAME##', lot: 'plans' });
    const scheduled = (await send(tenant, { to: ['+2250101010104', '+2250101010105'], message: 'Plus tard', send_at: later(2) })).body.data;
    await t.http().post(`/v1/sms/out/${scheduled.messages[0].uniq_id}/cancel`).set('Authorization', tenant.auth).expect(200);
    await send(tenant, { to: ['+2250101010106'], message: 'Encore plus tard', send_at: later(3), lot: 'annule' });
    await t.http().post('/v1/sms/out/annule/cancel').set('Authorization', tenant.auth).expect(200);
    t.clock.advance(4 * 3600);
    await t.deliver();
    await t.database.run((sql) => t.app.get(OutboxRepository).backlog(sql, t.clock.now()));
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\b(message_out|outbox|message_lot|contact|contact_group_member|opt_out)\b/.test(statement.query));
  }, 120_000);
  afterAll(() => t?.close());

  it('ran the statements of expansion, screening, promotion and cancelling', () => {
    for (const shape of [
      /FROM contact_group_member m JOIN contact c/,
      /FROM contact c WHERE c\.account_id = \? AND c\.phone IN/,
      /FROM contact c WHERE c\.account_id = \? AND c\.id IN/,
      /FROM message_out WHERE account_id = \? AND recipient IN/,
      /FROM message_out WHERE uniq_id IN \(.*\)( FOR UPDATE)?$/s,
      /FROM message_out WHERE account_id = \? AND lot = \?/,
      /FROM message_out WHERE account_id = \? AND uniq_id = \?/,
      /FROM outbox WHERE created_at <= \?/,
    ]) {
      expect({ shape: String(shape), ran: ran.some((statement) => shape.test(statement.query)) }).toEqual({ shape: String(shape), ran: true });
    }
  });

  it('seeks through an index in every one of them', async () => {
    expect(await plansOf(t.app.get(DataSource), ran)).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
