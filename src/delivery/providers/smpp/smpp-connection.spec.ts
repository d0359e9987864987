import { Logger } from '@nestjs/common';
import smpp from 'smpp';
import { FakeSmsc } from '../../../../test/support/fake-smsc.js';
import { SmppConnection } from './smpp-connection.js';
import { parseSmppUrl } from './smpp-endpoint.js';

const OPTIONS = { enquireLinkMs: 30_000, responseTimeoutMs: 5_000, maxReconnectDelayMs: 1_000 };
const submitTo = (connection: SmppConnection, to: string, bulk: boolean) =>
  connection.submit({ destination_addr: to, source_addr: 'TEST', short_message: 'Bonjour' }, bulk);

describe(SmppConnection.name, () => {
  let smsc: FakeSmsc;
  let connection: SmppConnection;

  const connect = async (window: number) => {
    connection = new SmppConnection(parseSmppUrl(smsc.url), { ...OPTIONS, window }, new Logger('test'));
    const bound = new Promise((resolve) => connection.once('bound', resolve));
    connection.start();
    await bound;
  };

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(async () => {
    smsc = new FakeSmsc();
    await smsc.start();
  });
  afterEach(async () => {
    await connection?.stop();
    await smsc.stop();
  });

  it('keeps at most a window of submits in flight, and gives a free place to a waiting OTP before the bulk submits that waited longer', async () => {
    await connect(2);
    smsc.submitDelayMs = 20;

    const bulk = Array.from({ length: 6 }, (_, n) => submitTo(connection, `bulk${n}`, true));
    await new Promise((resolve) => setImmediate(resolve));
    const otp = submitTo(connection, 'otp', false);
    expect(connection.outstanding).toBe(2);
    await Promise.all([...bulk, otp]);

    expect(smsc.submits.map((submit) => submit.destinationAddr)).toEqual(['bulk0', 'bulk1', 'otp', 'bulk2', 'bulk3', 'bulk4', 'bulk5']);
    expect(connection.outstanding).toBe(0);
  });

  it('holds every submit back after a busy answer, twice as long while the SMSC stays busy', async () => {
    await connect(10);
    smsc.answerNext(smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL, smpp.ESME_RTHROTTLED);

    const answers: Array<{ status: number; waitedMs: number }> = [];
    for (let n = 0; n < 4; n++) {
      const started = Date.now();
      const response = await submitTo(connection, `to${n}`, true);
      answers.push({ status: response.command_status, waitedMs: Date.now() - started });
    }

    expect(answers.map((answer) => answer.status)).toEqual([smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL, smpp.ESME_RTHROTTLED, smpp.ESME_ROK]);
    expect(answers[1]!.waitedMs).toBeGreaterThanOrEqual(19);
    expect(answers[2]!.waitedMs).toBeGreaterThanOrEqual(39);
    expect(answers[3]!.waitedMs).toBeGreaterThanOrEqual(79);
  });
});
