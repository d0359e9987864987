import { randomUUID } from 'node:crypto';
import { CONTACT_IMPORT_QUEUE } from '../src/contact-import/contact-import.worker.js';
import { ImportReader } from '../src/contact-import/import-reader.js';
import { JobRunner } from '../src/jobs/job-runner.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_BYTES = 5 * 1024 * 1024;
const PHONE_INVALID = 'phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';

/** `count` rows `+2250500000000 + n`, `Contact n`, starting at `from`. */
const numbered = (count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => `+225050${String(from + n).padStart(7, '0')},Contact ${from + n}`).join('\n');

interface Contact {
  phone: string;
  name: string | null;
  email: string | null;
  language: string;
  attributes: Record<string, string>;
  opted_out: boolean;
}

describe('/v1/contact/import', () => {
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

  const post = (tenant: Tenant, query = '') => t.http().post(`/v1/contact/import${query}`).set('Authorization', tenant.auth);
  const importCsv = (tenant: Tenant, csv: string | Buffer, query = '') => post(tenant, query).set('Content-Type', 'text/csv').send(csv);
  const job = async (tenant: Tenant, id: string) => (await t.http().get(`/v1/contact/import/${id}`).set('Authorization', tenant.auth).expect(200)).body.data;
  /** Imports the file, lets the worker finish it, and answers the finished job. */
  const imported = async (tenant: Tenant, csv: string | Buffer, query = '') => {
    const res = await importCsv(tenant, csv, query);
    expect(res.status).toBe(202);
    await t.drain(CONTACT_IMPORT_QUEUE);
    return job(tenant, res.body.data.id);
  };
  const contacts = async (tenant: Tenant, query = ''): Promise<Contact[]> => {
    const res = await t.http().get(`/v1/contact?limit=100${query}`).set('Authorization', tenant.auth).expect(200);
    return (res.body.data.items as Contact[])
      .map(({ phone, name, email, language, attributes, opted_out }) => ({ phone, name, email, language, attributes, opted_out }))
      .sort((a, b) => a.phone.localeCompare(b.phone));
  };
  const jobCount = (tenant: Tenant) =>
    t.database.run(async (sql) => Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM contact_import WHERE account_id = ?', [tenant.accountId]))!.n));
  const contactCount = (tenant: Tenant) =>
    t.database.run(async (sql) => Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM contact WHERE account_id = ?', [tenant.accountId]))!.n));
  const contact = (phone: string, fields: Partial<Contact> = {}): Contact => ({
    phone,
    name: null,
    email: null,
    language: 'fr',
    attributes: {},
    opted_out: false,
    ...fields,
  });

  describe('POST', () => {
    it('answers 202 succès with the pending job, then imports the good rows and reports the others by spreadsheet row', async () => {
      const tenant = await createTenant(t);
      await t.admin.createContact(tenant.accountId, { name: 'Déjà là', phone: '+2250707070799' });
      const csv = [
        'phone,name,email,Ville,language',
        '+2250707070701,Awa Koné,AWA@example.com,Abidjan,fr',
        '+2250707070702,Bakary,,Bouaké,EN',
        'pas un numéro,Personne,,,',
        '+2250707070703,Chantal,pas-une-adresse,,xx',
        '+225 07 07 07 07 01,Awa encore,,Yamoussoukro,',
        '+2250707070799,Autre nom,,,',
        ',,,,',
        '+2250707070704,,,,',
      ].join('\r\n');

      const res = await importCsv(tenant, csv);

      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        status: 202,
        message: 'succès',
        data: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          status: 'pending',
          rows: 0,
          created: 0,
          updated: 0,
          duplicates: 0,
          invalid: 0,
          errors: [],
          group_id: null,
          encoding: 'utf-8',
          created_at: expect.stringMatching(TIME),
          finished_at: null,
        },
      });
      await t.drain(CONTACT_IMPORT_QUEUE);
      expect(await job(tenant, res.body.data.id)).toEqual({
        ...res.body.data,
        status: 'completed',
        rows: 7,
        created: 3,
        duplicates: 2,
        invalid: 2,
        errors: [
          { row: 4, errors: [PHONE_INVALID] },
          { row: 5, errors: ['email: adresse e-mail invalide', 'language: doit valoir fr, en, es ou pt'] },
        ],
        finished_at: expect.stringMatching(TIME),
      });
      expect(await contacts(tenant)).toEqual([
        contact('+2250707070701', { name: 'Awa Koné', email: 'awa@example.com', attributes: { ville: 'Abidjan' } }),
        contact('+2250707070702', { name: 'Bakary', language: 'en', attributes: { ville: 'Bouaké' } }),
        contact('+2250707070704'),
        contact('+2250707070799', { name: 'Déjà là' }),
      ]);
    });

    it('updates the contacts the account has with on_duplicate=update, merging attributes and leaving empty cells alone', async () => {
      const tenant = await createTenant(t);
      await imported(tenant, 'phone,name,email,ville,quartier\n+2250707070701,Awa,awa@example.com,Abidjan,Cocody\n');

      const finished = await imported(tenant, 'phone,name,email,ville\n+2250707070701,Awa Koné,,Bouaké\n+2250707070702,Bakary,,\n', '?on_duplicate=update');

      expect(finished).toEqual(expect.objectContaining({ status: 'completed', rows: 2, created: 1, updated: 1, duplicates: 0, invalid: 0, errors: [] }));
      expect(await contacts(tenant)).toEqual([
        contact('+2250707070701', { name: 'Awa Koné', email: 'awa@example.com', attributes: { ville: 'Bouaké', quartier: 'Cocody' } }),
        contact('+2250707070702', { name: 'Bakary' }),
      ]);
    });

    it('reads a French Excel file: `;` found by itself or given, a byte-order mark, accented headers, national numbers with default_country', async () => {
      const tenant = await createTenant(t);
      const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Téléphone;NAME;Numéro client\r\n07 07 07 07 01;"Koné; Awa";C-1\r\n0707070702;Bakary;C-2\r\n')]);

      for (const query of ['?default_country=CI', '?default_country=CI&delimiter=%3B']) {
        const finished = await imported(tenant, file, `${query}&on_duplicate=update`);
        expect(finished).toEqual(expect.objectContaining({ status: 'completed', rows: 2, invalid: 0, errors: [] }));
      }
      expect(await contacts(tenant)).toEqual([
        contact('+2250707070701', { name: 'Koné; Awa', attributes: { numero_client: 'C-1' } }),
        contact('+2250707070702', { name: 'Bakary', attributes: { numero_client: 'C-2' } }),
      ]);
    });

    it('reads a file that is not UTF-8 as Windows-1252, and says so', async () => {
      const tenant = await createTenant(t);

      const finished = await imported(tenant, Buffer.from('phone;name;ville\n+2250707070701;Awa Koné;Abidjan \x96 Cocody\n', 'latin1'));

      expect(finished).toEqual(expect.objectContaining({ status: 'completed', rows: 1, created: 1, encoding: 'windows-1252', errors: [] }));
      expect(await contacts(tenant)).toEqual([contact('+2250707070701', { name: 'Awa Koné', attributes: { ville: 'Abidjan – Cocody' } })]);
    });

    it('refuses a file that is not UTF-8 with encoding=utf-8, before queueing it', async () => {
      const tenant = await createTenant(t);

      const res = await importCsv(tenant, Buffer.from('phone;nom\n+2250707070701;Awa Koné\n', 'latin1'), '?encoding=utf-8');

      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['body: texte non UTF-8'] });
      expect(await jobCount(tenant)).toBe(0);
    });

    it('reads UTF-8 with or without a byte-order mark, also with encoding=utf-8', async () => {
      const tenant = await createTenant(t);

      const withBom = await imported(tenant, '\uFEFFphone,name\n+2250707070701,Awa Koné\n', '?encoding=utf-8');
      const without = await imported(tenant, 'phone,name\n+2250707070702,Bakary Traoré\n');

      expect([withBom.encoding, without.encoding]).toEqual(['utf-8', 'utf-8']);
      expect(await contacts(tenant)).toEqual([contact('+2250707070701', { name: 'Awa Koné' }), contact('+2250707070702', { name: 'Bakary Traoré' })]);
    });

    it.each([
      ['no phone column', 'nom,email\nAwa,awa@example.com\n', 'fichier: colonne de téléphone introuvable (en-têtes: nom, email)'],
      ['no phone column in a Windows-1252 file', Buffer.from('Prénom;Ville\nAwa;Abidjan\n', 'latin1'), 'fichier: colonne de téléphone introuvable (en-têtes: Prénom, Ville)'],
      ['a column twice', 'phone,Name,name\n+2250707070701,Awa,Awa\n', "fichier: colonne « name » en double dans l'en-tête"],
      ['no header row', '\n\n', "fichier: ligne d'en-tête obligatoire"],
      ['a spreadsheet', Buffer.from('PK\x03\x04rest of a zip', 'latin1'), 'fichier: classeur Excel reçu, enregistrez-le au format CSV UTF-8'],
    ])('answers 400 for %s, before queueing anything', async (_, csv, error) => {
      const tenant = await createTenant(t);

      const res = await importCsv(tenant, csv);

      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
      expect([await jobCount(tenant), await contactCount(tenant)]).toEqual([0, 0]);
    });

    it('fails the whole job for a quote never closed after the header', async () => {
      const tenant = await createTenant(t);

      const finished = await imported(tenant, 'phone,name\n+2250707070701,Awa\n+2250707070702,"Bakary\n');

      expect(finished).toEqual(
        expect.objectContaining({ status: 'failed', created: 0, errors: [{ row: 3, errors: ['fichier: CSV illisible (guillemet non fermé)'] }], finished_at: expect.stringMatching(TIME) }),
      );
      expect(await contactCount(tenant)).toBe(0);
    });

    it('fails a file of more than 50,000 data rows whole', async () => {
      const tenant = await createTenant(t);

      const finished = await imported(tenant, `phone,name\n${numbered(50_001)}\n`);

      expect(finished).toEqual(
        expect.objectContaining({ status: 'failed', rows: 50_001, created: 0, errors: [{ row: 0, errors: ['fichier: 50001 lignes de données, 50000 au plus'] }] }),
      );
      expect(await contactCount(tenant)).toBe(0);
    });

    it('imports a file of 50,000 rows', async () => {
      const tenant = await createTenant(t);

      const finished = await imported(tenant, `phone,name\n${numbered(50_000)}\n`);

      expect(finished).toEqual(expect.objectContaining({ status: 'completed', rows: 50_000, created: 50_000, duplicates: 0, invalid: 0, errors: [] }));
      expect(await contactCount(tenant)).toBe(50_000);
    }, 120_000);

    it('keeps the first 1,000 errors, in file order', async () => {
      const tenant = await createTenant(t);
      const rows = Array.from({ length: 1_200 }, (_, n) => `faux ${n}`).join('\n');

      const finished = await imported(tenant, `phone\n${rows}\n`);

      expect(finished).toEqual(expect.objectContaining({ status: 'completed', rows: 1_200, invalid: 1_200 }));
      expect(finished.errors).toHaveLength(1_000);
      expect(finished.errors.map((error: { row: number }) => error.row)).toEqual(Array.from({ length: 1_000 }, (_, n) => n + 2));
    });

    it('takes the file part of a multipart/form-data form', async () => {
      const tenant = await createTenant(t);

      const res = await post(tenant)
        .field('note', 'ignored')
        .attach('file', Buffer.from('phone,name\n+2250707070701,Awa\n'), { filename: 'contacts.csv', contentType: 'text/csv' });

      expect(res.status).toBe(202);
      await t.drain(CONTACT_IMPORT_QUEUE);
      expect(await job(tenant, res.body.data.id)).toEqual(expect.objectContaining({ status: 'completed', rows: 1, created: 1 }));
      expect(await contacts(tenant)).toEqual([contact('+2250707070701', { name: 'Awa' })]);
    });

    it.each([
      ['an empty text/csv body', (tenant: Tenant) => importCsv(tenant, '')],
      ['a form without a file part', (tenant: Tenant) => post(tenant).field('fichier', 'phone\n+2250707070701\n')],
      ['an empty file part', (tenant: Tenant) => post(tenant).attach('file', Buffer.alloc(0), 'contacts.csv')],
    ])('answers 400 to %s', async (_, send) => {
      const res = await send(await createTenant(t));

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['file: fichier CSV absent ou vide'] });
    });

    it.each([
      ['a form without a boundary', 'multipart/form-data'],
      ['a form cut short', 'multipart/form-data; boundary=----x'],
    ])('answers 400 to %s', async (_, type) => {
      const res = await post(await createTenant(t)).set('Content-Type', type).send('------x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone');

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['body: formulaire multipart illisible'] });
    });

    it.each([
      ['application/json', '{"phone":"+2250707070701"}'],
      ['text/plain', 'phone\n+2250707070701\n'],
      ['application/vnd.ms-excel', 'phone\n+2250707070701\n'],
    ])('answers 415 to a %s body, naming the types it takes', async (type, body) => {
      const res = await post(await createTenant(t)).set('Content-Type', type).send(body);

      expect(res.status).toBe(415);
      expect(res.body).toEqual({ status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: text/csv ou multipart/form-data attendu'] });
    });

    it('takes a form of the file and 20 other fields, and names the limit past them', async () => {
      const tenant = await createTenant(t);
      const form = (fields: number, files = 1) => {
        let request = post(tenant);
        for (let n = 0; n < fields; n++) request = request.field(`note${n}`, 'x');
        for (let n = 0; n < files; n++) request = request.attach(n === 0 ? 'file' : `file${n}`, Buffer.from('phone\n+2250707070701\n'), 'contacts.csv');
        return request;
      };

      expect((await form(20)).status).toBe(202);
      expect((await form(21)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['body: formulaire: 20 champs au plus en plus du fichier'] });
      expect((await form(0, 2)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['body: formulaire: 1 fichier au plus (la partie file)'] });
    });

    it('still answers 415 to text/csv and multipart/form-data on every other route', async () => {
      const tenant = await createTenant(t);

      const csv = await t.http().post('/v1/contact/bulk').set('Authorization', tenant.auth).set('Content-Type', 'text/csv').send('phone\n+2250707070701\n');
      const form = await t.http().post('/v1/contact').set('Authorization', tenant.auth).attach('file', Buffer.from('phone\n+2250707070701\n'), 'contacts.csv');

      const json = { status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] };
      expect([csv.status, csv.body]).toEqual([415, json]);
      expect([form.status, form.body]).toEqual([415, json]);
    });

    it('answers 413 to a file larger than CONTACT_IMPORT_MAX_BYTES, as text/csv or as a form part', async () => {
      const tenant = await createTenant(t);
      const file = Buffer.alloc(MAX_BYTES + 1, 'a');

      const csv = await importCsv(tenant, file);
      const form = await post(tenant).attach('file', file, 'contacts.csv');

      expect([csv.status, csv.body]).toEqual([413, { status: 413, message: 'requete_trop_volumineuse' }]);
      expect([form.status, form.body]).toEqual([413, { status: 413, message: 'requete_trop_volumineuse', errors: [`file: ${MAX_BYTES} octets au plus (CONTACT_IMPORT_MAX_BYTES)`] }]);
    });

    it('accepts a file of exactly CONTACT_IMPORT_MAX_BYTES', async () => {
      const tenant = await createTenant(t);
      const header = 'phone,notes\n';
      const file = `${header}+2250707070701,${'x'.repeat(MAX_BYTES - header.length - 16)}\n`;

      const res = await importCsv(tenant, file);

      expect(res.status).toBe(202);
    });

    it('answers 401 before reading a file of an unauthenticated request', async () => {
      const res = await t.http().post('/v1/contact/import').set('Content-Type', 'text/csv').send('phone\n+2250707070701\n');

      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    });

    it.each([
      ['on_duplicate=replace', { errors: ['on_duplicate: doit valoir skip ou update'] }],
      ['delimiter=%7C', { errors: ['delimiter: doit valoir « , », « ; » ou auto'] }],
      ['default_country=XX', { errors: ['default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'] }],
      ['group_id=12', { errors: ['group_id: doit être un identifiant (UUID)'] }],
      [`group_id=${randomUUID()}`, { errors: ['group_id: groupe non trouvé'] }],
    ])('answers 400 to %s', async (query, expected) => {
      const tenant = await createTenant(t);

      const res = await importCsv(tenant, 'phone\n+2250707070701\n', `?${query}`);

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', ...expected });
    });

    it("refuses another account's group", async () => {
      const tenant = await createTenant(t);
      const stranger = await createTenant(t);
      const { id } = await t.admin.createGroup(stranger.accountId, 'Leur groupe');

      const res = await importCsv(tenant, 'phone\n+2250707070701\n', `?group_id=${id}`);

      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['group_id: groupe non trouvé'] });
    });
  });

  describe('group and opt-outs', () => {
    it('puts every imported, updated or skipped contact in the group, once', async () => {
      const tenant = await createTenant(t);
      const { id: groupId } = await t.admin.createGroup(tenant.accountId, 'Clients');
      await t.admin.createContact(tenant.accountId, { phone: '+2250707070709' });

      const finished = await imported(tenant, 'phone\n+2250707070701\n+2250707070702\n+2250707070701\n+2250707070709\nfaux\n', `?group_id=${groupId}`);

      expect(finished).toEqual(expect.objectContaining({ status: 'completed', group_id: groupId, created: 2, duplicates: 2, invalid: 1 }));
      expect((await contacts(tenant, `&group_id=${groupId}`)).map((each) => each.phone)).toEqual(['+2250707070701', '+2250707070702', '+2250707070709']);
      const group = await t.http().get(`/v1/group/${groupId}`).set('Authorization', tenant.auth).expect(200);
      expect(group.body.data.contact_count).toBe(3);
    });

    it('fails a job whose group was deleted before it ran', async () => {
      const tenant = await createTenant(t);
      const { id: groupId } = await t.admin.createGroup(tenant.accountId, 'Éphémère');
      await t.app.get(JobRunner).pause(CONTACT_IMPORT_QUEUE);
      const res = await importCsv(tenant, 'phone\n+2250707070701\n', `?group_id=${groupId}`).expect(202);
      await t.http().delete(`/v1/group/${groupId}`).set('Authorization', tenant.auth).expect(200);
      t.app.get(JobRunner).resume(CONTACT_IMPORT_QUEUE);
      await t.drain(CONTACT_IMPORT_QUEUE);

      expect(await job(tenant, res.body.data.id)).toEqual(
        expect.objectContaining({ status: 'failed', created: 0, errors: [{ row: 0, errors: ["group_id: groupe non trouvé (supprimé pendant l'import)"] }] }),
      );
      expect(await contactCount(tenant)).toBe(0);
    });

    it('puts the numbers of rows with opted_out=true on the opt-out list of the key\'s mode, source import', async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${api_key}` };
      await t.admin.createContact(tenant.accountId, { phone: '+2250707070709' });
      const csv = 'phone,opted_out\n+2250707070701,true\n+2250707070702,false\n+2250707070703,OUI\n+2250707070709,1\n+2250707070704,peut-être\n+2250707070705,\n';

      const finished = await imported(tenant, csv);
      await imported(sandbox, 'phone,opted_out\n+2250707070702,true\n');

      expect(finished).toEqual(
        expect.objectContaining({ status: 'completed', created: 4, duplicates: 1, invalid: 1, errors: [{ row: 6, errors: ['opted_out: doit valoir true ou false'] }] }),
      );
      expect((await contacts(tenant)).map((each) => [each.phone, each.opted_out])).toEqual([
        ['+2250707070701', true],
        ['+2250707070702', false],
        ['+2250707070703', true],
        ['+2250707070705', false],
        ['+2250707070709', true],
      ]);
      expect((await contacts(sandbox)).filter((each) => each.opted_out).map((each) => each.phone)).toEqual(['+2250707070702']);
      const listed = await t.database.run((sql) =>
        sql.all<{ phone: string; source: string; sandbox: number | boolean; created_by: string }>(
          'SELECT phone, source, sandbox, created_by FROM opt_out WHERE account_id = ? ORDER BY phone',
          [tenant.accountId],
        ),
      );
      expect(listed.map((row) => [row.phone, row.source, Boolean(row.sandbox), row.created_by])).toEqual([
        ['+2250707070701', 'import', false, tenant.userId],
        ['+2250707070702', 'import', true, tenant.userId],
        ['+2250707070703', 'import', false, tenant.userId],
        ['+2250707070709', 'import', false, tenant.userId],
      ]);
    });
  });

  describe('contact_import.completed', () => {
    it('is sent to the account webhook once the job finishes, completed or failed', async () => {
      const tenant = await createTenant(t);
      await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url('/imports'), events: ['contact_import.completed'] }).expect(200);

      const done = await imported(tenant, 'phone\n+2250707070701\nfaux\n');
      const failed = await imported(tenant, 'phone,name\n+2250707070702,"Awa\n');
      await t.drain(WEBHOOK_QUEUE);
      const hooks = await until(() => receiver.at('/imports'), (received) => received.length >= 2);

      const bodies = hooks.map((hook) => JSON.parse(hook.body)).sort((a, b) => a.data.id.localeCompare(b.data.id));
      const event = (finished: Record<string, unknown>) => ({
        id: expect.any(String),
        type: 'contact_import.completed',
        created_at: finished.finished_at,
        api_version: 'v1',
        data: {
          id: finished.id,
          status: finished.status,
          rows: finished.rows,
          created: finished.created,
          updated: 0,
          duplicates: 0,
          invalid: finished.invalid,
          encoding: 'utf-8',
          group_id: null,
          created_at: finished.created_at,
          finished_at: finished.finished_at,
          sandbox: false,
        },
      });
      expect(bodies).toEqual([event(done), event(failed)]);
      expect([done.status, failed.status]).toEqual(['completed', 'failed']);
    });
  });

  describe('GET', () => {
    it("lists the jobs of the key's mode, newest first, by pages", async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) ids.unshift((await importCsv(tenant, `phone\n+225070707070${n}\n`).expect(202)).body.data.id);
      await importCsv({ ...tenant, auth: `Bearer ${api_key}` }, 'phone\n+2250707070701\n').expect(202);
      await t.drain(CONTACT_IMPORT_QUEUE);

      const first = await t.http().get('/v1/contact/import?limit=2').set('Authorization', tenant.auth);
      const second = await t.http().get(`/v1/contact/import?limit=2&cursor=${first.body.data.next_cursor}`).set('Authorization', tenant.auth);

      expect(first.status).toBe(200);
      expect(first.body.data.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
      expect(first.body.data.items[0]).toEqual(await job(tenant, ids[0]!));
      expect(first.body.data.has_more).toBe(true);
      expect(second.body.data).toEqual({ items: [await job(tenant, ids[2]!)], next_cursor: null, has_more: false });
    });

    it("answers 404 Non trouvé for another account's job, an unknown id or a malformed one", async () => {
      const tenant = await createTenant(t);
      const stranger = await createTenant(t);
      const { id } = (await importCsv(tenant, 'phone\n+2250707070701\n').expect(202)).body.data;

      for (const wanted of [id, randomUUID(), 'not-an-id']) {
        const res = await t.http().get(`/v1/contact/import/${wanted}`).set('Authorization', stranger.auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 404, message: 'Non trouvé', errors: ['id: aucun import pour cet identifiant'] });
      }
      const list = await t.http().get('/v1/contact/import').set('Authorization', stranger.auth).expect(200);
      expect(list.body.data).toEqual({ items: [], next_cursor: null, has_more: false });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same file and query, without a second job', async () => {
      const tenant = await createTenant(t);
      const csv = 'phone\n+2250707070701\n';

      const first = await importCsv(tenant, csv, '?on_duplicate=update').set('Idempotency-Key', 'import-1');
      const again = await importCsv(tenant, csv, '?on_duplicate=update').set('Idempotency-Key', 'import-1');
      const form = await post(tenant, '?on_duplicate=update').set('Idempotency-Key', 'import-1').attach('file', Buffer.from(csv), 'contacts.csv');

      expect(first.status).toBe(202);
      expect([again.status, again.body]).toEqual([202, first.body]);
      expect([form.status, form.body]).toEqual([202, first.body]);
      const list = await t.http().get('/v1/contact/import').set('Authorization', tenant.auth).expect(200);
      expect(list.body.data.items.map((item: { id: string }) => item.id)).toEqual([first.body.data.id]);
    });

    it('answers 422 when the key comes back with another file or another query', async () => {
      const tenant = await createTenant(t);
      await importCsv(tenant, 'phone\n+2250707070701\n').set('Idempotency-Key', 'import-2').expect(202);

      const otherFile = await importCsv(tenant, 'phone\n+2250707070702\n').set('Idempotency-Key', 'import-2');
      const otherQuery = await importCsv(tenant, 'phone\n+2250707070701\n', '?on_duplicate=update').set('Idempotency-Key', 'import-2');

      const refused = { status: 422, message: 'cle_idempotence_reutilisee', errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'] };
      expect([otherFile.status, otherFile.body]).toEqual([422, refused]);
      expect([otherQuery.status, otherQuery.body]).toEqual([422, refused]);
    });

    it('replays a refused group', async () => {
      const tenant = await createTenant(t);
      const query = `?group_id=${randomUUID()}`;

      const first = await importCsv(tenant, 'phone\n+2250707070701\n', query).set('Idempotency-Key', 'import-3');
      const again = await importCsv(tenant, 'phone\n+2250707070701\n', query).set('Idempotency-Key', 'import-3');

      expect([first.status, again.status]).toEqual([400, 400]);
      expect(again.body).toEqual(first.body);
    });
  });

  describe('a job taken up again', () => {
    it('goes on from its position without importing a chunk twice', async () => {
      const tenant = await createTenant(t);
      const runner = t.app.get(JobRunner);
      await runner.pause(CONTACT_IMPORT_QUEUE);
      const { id } = (await importCsv(tenant, `phone,name\n${numbered(1_200)}\n${numbered(1, 3)}\n`).expect(202)).body.data;
      // as if an instance had imported the first chunk, then died
      await t.database.run((sql) => sql.run("UPDATE contact_import SET status = 'processing', position = 500, total_rows = 1201, created = 500, attempts = 1 WHERE id = ?", [id]));
      const firstChunk = Array.from({ length: 500 }, (_, n) => ({ phone: `+225050${String(n).padStart(7, '0')}` }));
      await t.http().post('/v1/contact/bulk').set('Authorization', tenant.auth).send({ contacts: firstChunk }).expect(200);
      runner.resume(CONTACT_IMPORT_QUEUE);
      await t.drain(CONTACT_IMPORT_QUEUE);

      expect(await job(tenant, id)).toEqual(expect.objectContaining({ status: 'completed', rows: 1_201, created: 1_200, duplicates: 1, invalid: 0 }));
      expect(await contactCount(tenant)).toBe(1_200);
    });

    it('is offered again at once when its instance loses the reader thread, and finishes once', async () => {
      const tenant = await createTenant(t);
      const { id } = (await importCsv(tenant, `phone,name\n${numbered(20_000)}\n`).expect(202)).body.data;
      const row = () =>
        t.database.run(async (sql) => (await sql.get<{ position: number; attempts: number }>('SELECT position, attempts FROM contact_import WHERE id = ?', [id]))!);
      await until(row, ({ position }) => Number(position) > 0, 15_000, 5);
      await t.app.get(ImportReader).onApplicationShutdown();
      const lost = Date.now();
      const finished = await until(() => job(tenant, id), ({ status }) => status === 'completed', 30_000);

      // well within the 60 s lease it would otherwise have waited out
      expect(Date.now() - lost).toBeLessThan(20_000);
      expect(finished).toEqual(expect.objectContaining({ rows: 20_000, created: 20_000, duplicates: 0, invalid: 0, errors: [] }));
      expect(Number((await row()).attempts)).toBe(2);
      expect(await contactCount(tenant)).toBe(20_000);
    }, 60_000);

    it('is failed once it has been taken up 5 times without finishing', async () => {
      const tenant = await createTenant(t);
      const runner = t.app.get(JobRunner);
      await runner.pause(CONTACT_IMPORT_QUEUE);
      const { id } = (await importCsv(tenant, 'phone\n+2250707070701\n').expect(202)).body.data;
      await t.database.run((sql) => sql.run('UPDATE contact_import SET attempts = 5 WHERE id = ?', [id]));
      runner.resume(CONTACT_IMPORT_QUEUE);
      await t.drain(CONTACT_IMPORT_QUEUE);

      expect(await job(tenant, id)).toEqual(
        expect.objectContaining({ status: 'failed', created: 0, errors: [{ row: 0, errors: ['fichier: import interrompu 5 fois, abandonné'] }] }),
      );
      expect(await contactCount(tenant)).toBe(0);
    });
  });
});
