import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { newId } from '../src/common/ids.js';
import { startCli, type CliResult } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SECRET = 'cli-e2e-secret-0123456789abcdef0123456789';

/** `npm run cli -- <command>`: one JSON object on stdout, or `{"error"}` on stderr and exit 1. */
describe('cli', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let account: { account_id: string; user_id: string; sender_id: string; api_key: string };

  // each command is a process of its own: those that do not depend on each other run side by side
  const cli = (...args: string[]) => startCli(env, ...args);
  /** The line every command writes first on stderr: the database it acts on. */
  const using = () =>
    process.env.DB_TYPE === 'mysql'
      ? `using mysql ${process.env.DB_USER}@${process.env.DB_HOST ?? '127.0.0.1'}:${process.env.DB_PORT ?? '3306'}/${env.DB_NAME}\n`
      : `using sqlite ${env.DB_PATH}\n`;
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: using() });
    return result.json as Record<string, unknown>;
  };
  /** A refused command: exit 1, nothing on stdout, the database then one JSON error on stderr. */
  const refusalOf = (result: CliResult) => {
    const [named, error, ...rest] = result.stderr.split('\n');
    return { status: result.status, stdout: result.stdout, named: `${named}\n`, error: error ? (JSON.parse(error) as unknown) : null, rest };
  };
  const refused = (error: string) => ({ status: 1, stdout: '', named: using(), error: { error }, rest: [''] });
  const get = (path: string, bearer: string) => t.http().get(path).set('Authorization', `Bearer ${bearer}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { ...database.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: SECRET, OTP_SECRET: SECRET };
    account = (await ok('account:create', '--name', 'Acme Corp', '--balance', '12.50', '--email', 'Ops@Acme.example')) as typeof account;
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ ...env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await database?.drop();
  });

  it('account:create prints the ids and a working API key', async () => {
    expect(account).toEqual({
      account_id: expect.any(String),
      user_id: expect.any(String),
      sender_id: expect.any(String),
      api_key: expect.stringMatching(/^mk_live_[A-Za-z0-9_-]{43}$/),
    });
    const response = await get('/v1/account', account.api_key);
    expect(response.body).toEqual({
      status: 200,
      message: 'OK',
      data: expect.objectContaining({ id: account.account_id, name: 'Acme Corp', balance: 12.5, created_by: account.user_id }),
    });
  });

  it('account:create names the default sender after the account', async () => {
    const created = await ok('account:create', '--name', 'Société Générale 2026!');
    const send = await t
      .http()
      .post('/v1/otp/send')
      .set('Authorization', `Bearer ${created.api_key as string}`)
      .send({ channel: 'SMS', to: '+2250707070707', message: 'Code ##OTP##', sender: 'SocieteGene' });
    expect(send.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 0 } });
  });

  it('account:credit adds to the balance', async () => {
    expect(await ok('account:credit', '--account', account.account_id, '--amount', '7.5')).toEqual({ balance: 20 });
    expect((await get('/v1/account', account.api_key)).body.data.balance).toBe(20);
  });

  it('account:credit writes the description given on the ledger row', async () => {
    const owner = await ok('account:create', '--name', 'Credit Corp');
    expect(await ok('account:credit', '--account', owner.account_id as string, '--amount', '12.5', '--description', 'Virement reçu')).toEqual({ balance: 12.5 });
    const rows = (await get('/v1/balance/transactions', owner.api_key as string).expect(200)).body.data.items;
    expect(rows[0]).toMatchObject({ type: 'credit', amount: 12.5, reference_type: 'admin', description: 'Virement reçu' });
  });

  it('operator-key:create prints an operator key once, which opens /v1/admin only; operator-key:revoke stops one', async () => {
    const [kept, revoked] = await Promise.all([ok('operator-key:create', '--name', 'Équipe support'), ok('operator-key:create', '--name', 'Départ')]);
    expect(kept).toEqual({ key_id: expect.any(String), operator_key: expect.stringMatching(/^mk_op_[A-Za-z0-9_-]{43}$/) });
    const stored = await t.database.run((sql) => sql.get<Record<string, unknown>>('SELECT * FROM operator_key WHERE id = ?', [kept.key_id as string]));
    expect(JSON.stringify(stored)).not.toContain((kept.operator_key as string).slice(6));

    expect(await ok('operator-key:revoke', '--key-id', revoked.key_id as string)).toEqual({ key_id: revoked.key_id, revoked: true });
    expect((await get('/v1/admin/accounts', kept.operator_key as string)).status).toBe(200);
    expect((await get('/v1/account', kept.operator_key as string)).status).toBe(403);
    expect((await get('/v1/admin/accounts', revoked.operator_key as string)).body).toEqual({ status: 401, message: 'Non autorisé' });
  });

  it('names the SQLite file in DATA_DIR when DB_PATH is not set, and refuses to act on one that does not exist', async () => {
    if (process.env.DB_TYPE === 'mysql') return;
    const dataDir = join(dirname(env.DB_PATH!), 'elsewhere');
    const file = join(dataDir, 'messaging.sqlite');
    const elsewhere = { ...env, DB_PATH: '', DATA_DIR: dataDir };

    const credit = await startCli(elsewhere, 'account:credit', '--account', account.account_id, '--amount', '5');

    expect({ status: credit.status, stdout: credit.stdout, stderr: credit.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: `using sqlite ${file}\n${JSON.stringify({ error: `no database at ${file}: set DB_PATH or DATA_DIR as the server does` })}\n`,
    });
    expect(existsSync(file)).toBe(false);
    const created = await startCli(elsewhere, 'account:create', '--name', 'Nouvelle base');
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: `using sqlite ${file}\n` });
    expect(existsSync(file)).toBe(true);
  });

  it('account:webhook-secret rotates the signing secret and prints it once; the previous one still signs', async () => {
    const first = await ok('account:webhook-secret', '--account', account.account_id);
    expect(first).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const second = await ok('account:webhook-secret', '--account', account.account_id);
    expect(second.secret).not.toBe(first.secret);
    const stored = await t.database.run((sql) =>
      sql.get<{ secret: string; previous_secret: string }>('SELECT secret, previous_secret FROM account_webhook WHERE account_id = ?', [account.account_id]),
    );
    expect(stored!.previous_secret).not.toBeNull();
    expect(JSON.stringify(stored)).not.toContain((second.secret as string).slice(6));
  });

  it('account:audit finds the balance equal to the sum of the ledger', async () => {
    const send = await t
      .http()
      .post('/v1/otp/send')
      .set('Authorization', `Bearer ${account.api_key}`)
      .send({ channel: 'SMS', to: '+2250707070710', message: 'Code ##OTP##' });
    expect(send.status).toBe(200);
    const audit = await ok('account:audit', '--account', account.account_id);
    expect(audit).toEqual({ balance: audit.ledger_sum, ledger_sum: expect.any(Number), consistent: true });
  });

  it('user:create and token:issue give a JWT that works; user:delete stops it', async () => {
    const kept = async () => {
      const user = await ok('user:create', '--account', account.account_id, '--name', 'Ops', '--email', 'ops@acme.example');
      const token = await ok('token:issue', '--user', user.user_id as string, '--ttl', '600');
      expect(token).toEqual({ token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), expires_at: expect.any(Number) });
      expect(token.expires_at as number).toBeGreaterThan(Date.now() / 1000 + 590);
      return token;
    };
    const gone = async () => {
      const deleted = await ok('user:create', '--account', account.account_id, '--name', 'Gone');
      const doomed = await ok('token:issue', '--user', deleted.user_id as string);
      expect(await ok('user:delete', '--user', deleted.user_id as string)).toEqual({ user_id: deleted.user_id, deleted: true });
      return doomed;
    };
    const [token, doomed] = await Promise.all([kept(), gone()]);
    expect((await get('/v1/account', token.token as string)).status).toBe(200);
    expect((await get('/v1/account', doomed.token as string)).body).toEqual({ status: 401, message: 'Non autorisé' });
  });

  it('apikey:create makes live and test keys; apikey:revoke stops one', async () => {
    const [live, test] = await Promise.all([
      ok('apikey:create', '--user', account.user_id),
      ok('apikey:create', '--user', account.user_id, '--test'),
    ]);
    expect(live).toEqual({ key_id: expect.any(String), api_key: expect.stringMatching(/^mk_live_/) });
    expect(test.api_key).toMatch(/^mk_test_/);
    expect(await ok('apikey:revoke', '--key-id', live.key_id as string)).toEqual({ key_id: live.key_id, revoked: true });
    expect((await get('/v1/account', live.api_key as string)).status).toBe(401);
    expect((await get('/v1/account', test.api_key as string)).status).toBe(200);
  });

  it('sender:create registers a sender usable in sends', async () => {
    expect(await ok('sender:create', '--account', account.account_id, '--name', 'ACME')).toEqual({ sender_id: expect.any(String) });
    const send = await t
      .http()
      .post('/v1/otp/send')
      .set('Authorization', `Bearer ${account.api_key}`)
      .send({ channel: 'SMS', to: '+2250707070708', message: 'Code ##OTP##', sender: 'acme' });
    expect(send.body.status).toBe(200);
    const sms = await get(`/v1/sms/out/${send.body.data.uniq_id as string}`, account.api_key);
    expect(sms.body.data.sender).toEqual({ id: expect.any(String), name: 'ACME', email: null, phone: null });
  });

  it('group:create and contact:create build a group with members', async () => {
    const group = await ok('group:create', '--account', account.account_id, '--name', 'VIP', '--description', 'Best clients');
    const contact = await ok('contact:create', '--account', account.account_id, '--name', 'Awa', '--phone', '+2250707070709', '--group', group.id as string);
    expect(contact).toEqual({ contact_id: expect.any(String) });
    const read = await get(`/v1/group/${group.id as string}`, account.api_key);
    expect(read.body.data).toEqual(expect.objectContaining({ id: group.id, name: 'VIP', description: 'Best clients' }));
  });

  it('local-number:add stores a number for its country', async () => {
    expect(await ok('local-number:add', '--account', account.account_id, '--number', '+225 07 01 02 03 04')).toEqual({
      local_number_id: expect.any(String),
      number: '+2250701020304',
    });
  });

  describe('optout:add and optout:remove', () => {
    const phone = '+2250707070720';
    const listed = async (bearer: string) =>
      ((await get('/v1/opt-out', bearer).expect(200)).body.data.items as Array<Record<string, unknown>>).map(({ phone, source, created_by }) => ({ phone, source, created_by }));

    it('put a number on the live or the sandbox list and take it off, each change sent to the webhook as an event', async () => {
      const owner = await ok('account:create', '--name', 'Opt-out Corp');
      const { api_key: testKey } = await ok('apikey:create', '--user', owner.user_id as string, '--test');
      const live = owner.api_key as string;
      const hooked = await t
        .http()
        .put('/v1/account/webhook')
        .set('Authorization', `Bearer ${live}`)
        .send({ url: receiver.url('/cli-optout'), events: ['contact.opted_out', 'contact.opted_in'] })
        .expect(200);

      // the live and the sandbox lists are apart: a number goes on both at once
      expect(
        await Promise.all([
          ok('optout:add', '--account', owner.account_id as string, '--phone', '+225 07 07 07 07 20'),
          ok('optout:add', '--account', owner.account_id as string, '--phone', phone, '--sandbox'),
        ]),
      ).toEqual([
        { phone, sandbox: false, added: true },
        { phone, sandbox: true, added: true },
      ]);
      expect(await ok('optout:add', '--account', owner.account_id as string, '--phone', phone)).toEqual({ phone, sandbox: false, added: false });
      expect(await listed(live)).toEqual([{ phone, source: 'admin', created_by: null }]);
      expect(await listed(testKey as string)).toEqual([{ phone, source: 'admin', created_by: null }]);

      expect(await ok('optout:remove', '--account', owner.account_id as string, '--phone', phone)).toEqual({ phone, sandbox: false, removed: true });
      expect(await listed(live)).toEqual([]);
      expect(await listed(testKey as string)).toHaveLength(1);

      const hooks = await until(() => receiver.at('/cli-optout'), (received) => received.length >= 3);
      const events = hooks.map((hook) => new Webhook(hooked.body.data.secret as string).verify(hook.body, hook.headers as Record<string, string>) as { type: string; data: object });
      expect(events.map(({ type, data }) => ({ type, data }))).toEqual(
        expect.arrayContaining([
          { type: 'contact.opted_in', data: { phone, source: 'admin', keyword: null, contact_id: null, sandbox: false, at: expect.any(String) } },
          { type: 'contact.opted_out', data: { phone, source: 'admin', keyword: null, contact_id: null, sandbox: false, at: expect.any(String) } },
          { type: 'contact.opted_out', data: { phone, source: 'admin', keyword: null, contact_id: null, sandbox: true, at: expect.any(String) } },
        ]),
      );
      expect(events).toHaveLength(3);
    });

    it('optout:remove refuses a number that opted out itself, and one not on the list', async () => {
      const owner = await ok('account:create', '--name', 'Stop Corp');
      await t.database.run((sql) =>
        sql.run("INSERT INTO opt_out (id, account_id, sandbox, phone, source, keyword, created_at) VALUES (?, ?, ?, ?, 'sms_keyword', 'STOP', ?)", [
          newId(t.clock.now()),
          owner.account_id as string,
          false,
          phone,
          t.clock.now(),
        ]),
      );

      const refusals = [
        [[], 'transition_invalide: phone: seul le destinataire peut se réabonner (START)'],
        [['--sandbox'], "Non trouvé: phone: ce numéro n'est pas sur la liste des désinscrits"],
      ] as const;
      const results = await Promise.all(
        refusals.map(([args]) => cli('optout:remove', '--account', owner.account_id as string, '--phone', phone, ...args)),
      );
      for (const [i, [, error]] of refusals.entries()) {
        const result = results[i]!;
        expect(refusalOf(result)).toEqual(refused(error));
      }
      expect(await listed(owner.api_key as string)).toEqual([{ phone, source: 'sms_keyword', created_by: null }]);
    });
  });

  const failures: Array<[string[], string]> = [
    [['account:create'], "required option '--name <name>' not specified"],
    [['optout:add', '--account', '00000000-0000-7000-8000-000000000000', '--phone', '+2250707070707'], 'no account 00000000-0000-7000-8000-000000000000'],
    [['optout:remove', '--account', '00000000-0000-7000-8000-000000000000', '--phone', '+2250707070707'], 'no account 00000000-0000-7000-8000-000000000000'],
    [['optout:add', '--account', '00000000-0000-7000-8000-000000000000', '--phone', '0707070707'], 'invalid phone number (international form expected): 0707070707'],
    [['optout:remove', '--account', '00000000-0000-7000-8000-000000000000'], "required option '--phone <phone>' not specified"],
    [['account:credit', '--account', '00000000-0000-7000-8000-000000000000', '--amount', '5'], 'no account 00000000-0000-7000-8000-000000000000'],
    [['account:webhook-secret', '--account', '00000000-0000-7000-8000-000000000000'], 'no account 00000000-0000-7000-8000-000000000000'],
    [['account:create', '--name', 'X', '--balance', '1.234'], 'balance must be a non-negative amount with at most two decimals'],
    [['user:delete', '--user', '00000000-0000-7000-8000-000000000000'], 'no active user 00000000-0000-7000-8000-000000000000'],
    [['token:issue', '--user', '00000000-0000-7000-8000-000000000000'], 'no active user 00000000-0000-7000-8000-000000000000'],
    [['sender:create', '--account', '00000000-0000-7000-8000-000000000000', '--name', 'Bad Name!'], 'a sender name is up to 11 letters, digits or spaces with a letter, or up to 15 digits'],
    [['sender:approve', '--sender', '00000000-0000-7000-8000-000000000000'], 'Expéditeur non trouvé'],
    [['sender:reject', '--sender', '00000000-0000-7000-8000-000000000000', '--reason', ' '], 'erreur_de_validation: reason: doit faire de 1 à 500 caractères'],
    [['operator-key:create'], "required option '--name <name>' not specified"],
    [['operator-key:revoke', '--key-id', '00000000-0000-7000-8000-000000000000'], 'no active operator key 00000000-0000-7000-8000-000000000000'],
  ];
  describe('failing commands', () => {
    // none changes anything: they run three at a time from the start, and each test reads its own
    const results: Array<Promise<CliResult>> = [];
    let zeroAmount: Promise<CliResult>;
    beforeAll(() => {
      const commands = [...failures.map(([args]) => args), ['account:credit', '--account', account.account_id, '--amount', '0']];
      for (const [i, args] of commands.entries()) results.push(i < 3 ? cli(...args) : results[i - 3]!.then(() => cli(...args)));
      zeroAmount = results.pop()!;
    });

    it.each(failures.map(([args, message], i) => [args, message, i] as const))('%j fails with a JSON error on stderr', async (_args, message, i) => {
      expect(refusalOf(await results[i]!)).toEqual(refused(message));
    });

    it('refuses an amount that is not positive', async () => {
      expect(refusalOf(await zeroAmount)).toEqual(refused('amount must be a positive amount with at most two decimals'));
    });
  });
});
