import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SmtpEmailProvider } from '../src/delivery/providers/smtp-email.provider.js';
import { createTenant, emailBody, type Tenant } from './support/fixtures.js';
import { freePort } from './support/processes.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const EMAIL_FROM = 'otp@example.com';
const CODE_INVALID = { status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] };

/** An SMTP relay on loopback that keeps the raw messages it accepts and answers chosen codes to the next ones. */
class Relay {
  readonly received: string[] = [];
  private readonly answers: number[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  answerNext(...responseCodes: number[]): void {
    this.answers.push(...responseCodes);
  }

  async start(port = 0): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const responseCode = this.answers.shift();
          if (responseCode !== undefined) {
            callback(Object.assign(new Error(`refused with ${responseCode}`), { responseCode }));
            return;
          }
          this.received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface Mail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

/** Quoted-printable bytes (`=XX`) as UTF-8 text; the other characters of such a text are ASCII. */
const decodeQuoted = (text: string): string =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), adjacent ones joined. */
const decodeWords = (value: string): string =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_word, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuoted(text.replace(/_/g, ' ')),
    );

/** Soft line breaks removed, then the `=XX` bytes decoded. */
const decodeQuotedPrintable = (body: string): string => decodeQuoted(body.replace(/=\r?\n/g, ''));

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The leaf parts of a MIME entity, by content type, decoded. */
function leafParts(raw: string, found = new Map<string, string>()): Map<string, string> {
  const { headers, body } = splitEntity(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      leafParts(section.replace(/^\r\n/, '').replace(/\r\n$/, ''), found);
    }
    return found;
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  found.set(type.split(';')[0].trim().toLowerCase(), decoded);
  return found;
}

function parseMail(raw: string): Mail {
  const { headers } = splitEntity(raw);
  const from = decodeWords(headers.get('from') ?? '');
  const address = /<([^>]+)>\s*$/.exec(from);
  const parts = leafParts(raw);
  return {
    from: {
      name: (address ? from.slice(0, address.index) : '').trim().replace(/^"(.*)"$/, '$1'),
      address: address ? address[1] : from,
    },
    to: headers.get('to') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: parts.get('text/plain') ?? '',
    html: parts.get('text/html') ?? '',
  };
}

let mailboxes = 0;
const nextAddress = () => `user${++mailboxes}@example.com`;

function clientOf(t: TestApp, relay: Relay) {
  return {
    send: async (tenant: Tenant, to: string, extra: Record<string, unknown> = {}) => {
      const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(emailBody(to, extra));
      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: { uniq_id: expect.any(String), code: expect.any(String), expires_at: expect.any(Number) },
      });
      return res.body.data as { uniq_id: string; code: string };
    },
    mailsTo: (to: string): Mail[] => relay.received.map(parseMail).filter((mail) => mail.to === to),
    deliveryOf: (uniqId: string) =>
      t.database.run((sql) =>
        sql.get<{ delivery_status: string; provider: string | null; provider_id: string | null }>(
          'SELECT delivery_status, provider, provider_id FROM otp WHERE uniq_id = ?',
          [uniqId],
        ),
      ),
    verify: (tenant: Tenant, to: string, code: string) =>
      t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code }),
  };
}

const smtpEnv = (port: number) => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM });

describe(SmtpEmailProvider.name, () => {
  let relay: Relay;
  let t: TestApp;
  let client: ReturnType<typeof clientOf>;

  beforeAll(async () => {
    relay = new Relay();
    await relay.start();
    t = await startTestApp(smtpEnv(relay.port));
    client = clientOf(t, relay);
  });
  afterAll(async () => {
    await t?.close();
    await relay?.stop();
  });

  const sendAndDeliver = async (tenant: Tenant, to: string, extra: Record<string, unknown> = {}) => {
    const sent = await client.send(tenant, to, extra);
    await t.deliver();
    return sent;
  };

  describe('the e-mail', () => {
    it('carries the code from the default sender name at EMAIL_FROM, with a French subject, as text and HTML', async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();

      const sent = await sendAndDeliver(tenant, to);

      expect(client.mailsTo(to)).toEqual([
        {
          from: { name: 'DEMO', address: EMAIL_FROM },
          to,
          subject: 'Votre code de vérification',
          messageId: expect.stringMatching(/^<.+@.+>$/),
          text: expect.stringContaining(`Votre code est ${sent.code}`),
          html: expect.stringContaining(`Votre code est ${sent.code}`),
        },
      ]);
      expect(client.mailsTo(to)[0].html).toMatch(/^<!doctype html>/i);
    });

    it('takes its display name from the sender given in the request', async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();

      await sendAndDeliver(tenant, to, { sender: 'Acme Bank' });

      expect(client.mailsTo(to).map((mail) => mail.from)).toEqual([{ name: 'Acme Bank', address: EMAIL_FROM }]);
    });

    it.each([
      ['fr', 'Votre code de vérification Acme'],
      ['en', 'Your Acme verification code'],
      ['es', 'Su código de verificación de Acme'],
      ['pt', 'O seu código de verificação Acme'],
    ])('has the %s subject naming the application', async (language, subject) => {
      const tenant = await createTenant(t);
      const to = nextAddress();

      await sendAndDeliver(tenant, to, { language, application_name: 'Acme' });

      expect(client.mailsTo(to).map((mail) => mail.subject)).toEqual([subject]);
    });

    it("escapes the client's text in the HTML part and keeps it as written in the text part", async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();

      const intro = 'Bonjour ! Voici votre code de connexion à usage unique, valable cinq minutes :';

      const sent = await sendAndDeliver(tenant, to, { message: `${intro} <b>##OTP##</b> & "merci"` });

      const [mail] = client.mailsTo(to);
      expect(mail.html).toContain(`${intro} &lt;b&gt;${sent.code}&lt;/b&gt; &amp; &quot;merci&quot;`);
      expect(mail.html).not.toContain('<b>');
      expect(mail.text).toContain(`${intro} <b>${sent.code}</b> & "merci"`);
    });
    it('is never handed to the relay when sent with a test key', async () => {
      const tenant = await createTenant(t);
      const testKey = await t.admin.createApiKey(tenant.userId, true);
      const to = nextAddress();

      const sent = await sendAndDeliver({ ...tenant, auth: `Bearer ${testKey.api_key}` }, to);

      expect(client.mailsTo(to)).toEqual([]);
      expect(await client.deliveryOf(sent.uniq_id)).toEqual(expect.objectContaining({ delivery_status: 'sent' }));
    });
  });

  describe('delivery state', () => {
    it('moves the OTP to sent by smtp under the message id of the e-mail', async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();

      const sent = await sendAndDeliver(tenant, to);

      expect(await client.deliveryOf(sent.uniq_id)).toEqual({
        delivery_status: 'sent',
        provider: 'smtp',
        provider_id: client.mailsTo(to)[0].messageId,
      });
    });

    it('retries an e-mail the relay answers 451, and then delivers it once', async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();
      relay.answerNext(451);

      const sent = await sendAndDeliver(tenant, to);
      const afterRefusal = { delivery: await client.deliveryOf(sent.uniq_id), mails: client.mailsTo(to).length };
      t.clock.advance(5);
      await until(
        () => client.deliveryOf(sent.uniq_id),
        (delivery) => delivery?.delivery_status !== 'pending',
      );

      expect(afterRefusal).toEqual({ delivery: { delivery_status: 'pending', provider: null, provider_id: null }, mails: 0 });
      expect(await client.deliveryOf(sent.uniq_id)).toEqual(expect.objectContaining({ delivery_status: 'sent', provider: 'smtp' }));
      expect(client.mailsTo(to).map((mail) => mail.text.includes(sent.code))).toEqual([true]);
    });

    it('fails an e-mail the relay answers 550, and refunds its price once', async () => {
      const tenant = await createTenant(t, { balance: '10' });
      const to = nextAddress();
      relay.answerNext(550);

      const sent = await sendAndDeliver(tenant, to);
      await t.deliver();

      expect(await client.deliveryOf(sent.uniq_id)).toEqual(expect.objectContaining({ delivery_status: 'failed' }));
      expect(client.mailsTo(to)).toEqual([]);
      expect((await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance).toBe(10);
      const ledger = await t.database.run((sql) =>
        sql.all<{ amount: number | string; kind: string }>('SELECT amount, kind FROM ledger_entry WHERE account_id = ? ORDER BY id', [
          tenant.accountId,
        ]),
      );
      expect(ledger.map((row) => [Number(row.amount), row.kind])).toEqual([
        [1000, 'opening'],
        [-50, 'debit'],
        [50, 'refund'],
      ]);
      expect(await t.admin.audit(tenant.accountId)).toEqual({ balance: 10, ledger_sum: 10, consistent: true });
    });

    it('refuses the code of an e-mail the relay refused', async () => {
      const tenant = await createTenant(t);
      const to = nextAddress();
      relay.answerNext(550);
      const sent = await sendAndDeliver(tenant, to);

      const res = await client.verify(tenant, to, sent.code);

      expect(res.body).toEqual(CODE_INVALID);
    });
  });
});

describe(`${SmtpEmailProvider.name} with the relay unreachable`, () => {
  let relay: Relay;
  let port: number;
  let t: TestApp;
  let client: ReturnType<typeof clientOf>;

  beforeAll(async () => {
    relay = new Relay();
    port = await freePort();
    t = await startTestApp(smtpEnv(port));
    client = clientOf(t, relay);
  });
  afterAll(async () => {
    await t?.close();
    await relay?.stop();
  });

  it('keeps the e-mail pending through failed attempts and delivers it once the relay answers', async () => {
    const tenant = await createTenant(t);
    const to = nextAddress();

    const sent = await client.send(tenant, to);
    await t.deliver();
    t.clock.advance(5);
    await t.deliver();
    const whileUnreachable = await client.deliveryOf(sent.uniq_id);
    await relay.start(port);
    t.clock.advance(10);
    await until(
      () => client.deliveryOf(sent.uniq_id),
      (delivery) => delivery?.delivery_status !== 'pending',
    );

    expect(whileUnreachable).toEqual({ delivery_status: 'pending', provider: null, provider_id: null });
    expect(await client.deliveryOf(sent.uniq_id)).toEqual(expect.objectContaining({ delivery_status: 'sent', provider: 'smtp' }));
    expect(client.mailsTo(to).map((mail) => mail.text.includes(sent.code))).toEqual([true]);
  });
});
