// Hand-over to local SMSCs: lots sent to a group through POST /v1/sms/send by a service bound over SMPP to an SMSC in
// this process, or to three through the router, timed at the SMSCs from a lot's first submit_sm to its last; and an OTP
// sent while each lot goes out, timed from its request to its submit_sm.
import smpp from 'smpp';
import { apiCaller } from './load.mjs';
import { runCli, SERVICE_NODE_FLAGS, startNode, withOutput } from './processes.mjs';
import { medianLot } from './report.mjs';
import { routingFileOf } from './routing.mjs';

const CONTACTS_PER_REQUEST = 1000;

/**
 * Starts four SMSCs on loopback, and in turn, for each of `rounds` rounds, the service (production settings,
 * `SMPP_WINDOW=window`) on `port` bound to one SMSC by `SMPP_URL`, then the service bound to the three others through
 * a routing file whose one route takes turns over them (round_robin): each sends, after a first lot that warms it up,
 * one lot to a group of `messages` contacts through POST /v1/sms/send, handed over before it stops. Messages per
 * second of each lot at the SMSCs, from its first submit to its last; the median of each way, and the routed one's
 * ratio to the single connector's. Once a tenth of a lot is out, an OTP is sent: how long it took to reach an SMSC.
 */
export async function smscHandOver(env, { port, messages, window, rounds }) {
  const noted = { times: [], otps: new Map() };
  const smscs = await Promise.all(Array.from({ length: 4 }, () => startSmsc({ noted })));
  const [single, ...three] = smscs;
  const ways = {
    single: { smscs: [single], env: { SMS_PROVIDER: 'smpp', SMPP_URL: single.url } },
    routed: { smscs: three, env: { SMS_ROUTING_FILE: routingFileOf(three.map((each) => each.url)) } },
  };
  const lots = { single: [], routed: [] };
  let account;
  let group;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [name, way] of Object.entries(ways)) {
        const service = await startNode('service', [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
          env: { ...env, PORT: String(port), ...way.env, SMPP_WINDOW: String(window) },
          port,
          healthPath: '/health/live',
        });
        try {
          await waitFor(() => way.smscs.every((each) => each.binds > 0), 10_000, () => 'the service did not bind to every SMSC');
          account ??= runCli(env, 'account:create', '--name', 'Bench hand-over', '--balance', '100000000', '--sender', 'HANDOVER');
          const call = apiCaller(service.url, `Bearer ${account.api_key}`);
          group ??= await groupOf(call, messages);
          // not counted: every route of the bench is measured warm, and a service hands over for its whole lifetime
          const lotsSoFar = lots.single.length + lots.routed.length;
          await handOverLot(call, single, service, group, messages, `+22501${String(20_000_000 + lotsSoFar)}`);
          const lot = await handOverLot(call, single, service, group, messages, `+22501${String(10_000_000 + lotsSoFar)}`);
          lots[name].push(lot);
          console.log(`hand-over (${name}): ${messages} messages in ${lot.seconds.toFixed(2)} s, ${lot.per_second}/s (accepted in ${lot.accept_seconds} s); an OTP sent mid-lot reached the SMSC in ${lot.otp_ms} ms`);
        } catch (error) {
          throw withOutput(error, service);
        } finally {
          await service.stop();
        }
      }
    }
  } finally {
    await Promise.all(smscs.map((each) => each.stop()));
  }
  const summary = (each) => ({ messages, window, rounds, lots: each, ...medianLot(each), otp_ms_max: Math.max(...each.map((lot) => lot.otp_ms)) });
  const routed = { ...summary(lots.routed), connectors: 3 };
  return { ...summary(lots.single), routed, routed_ratio: Number((routed.per_second / medianLot(lots.single).per_second).toFixed(2)) };
}

/** A group of `messages` contacts. */
async function groupOf(call, messages) {
  const group = (await call('POST', '/v1/group', { name: 'Hand-over' })).id;
  for (let start = 0; start < messages; start += CONTACTS_PER_REQUEST) {
    const contacts = Array.from({ length: Math.min(CONTACTS_PER_REQUEST, messages - start) }, (_, n) => ({
      phone: `+22507${String(60_000_000 + start + n)}`,
      name: `Client ${start + n}`,
    }));
    await call('POST', '/v1/contact/bulk', { contacts, group_ids: [group] });
  }
  return group;
}

/**
 * One lot to the group, timed at the SMSCs (whose arrivals `smsc` reads), with an OTP to `otpTo` sent once a tenth is
 * out; fails at once if the service exits meanwhile.
 */
async function handOverLot(call, smsc, service, group, messages, otpTo) {
  const until = (condition, timeoutMs, failure) =>
    waitFor(() => {
      if (service.ended !== null) throw new Error(`the service ended (${service.ended}) during the lot`);
      return condition();
    }, timeoutMs, failure);
  const submitted = smsc.submits;
  const requested = Date.now();
  const sent = await call('POST', '/v1/sms/send', { group_ids: [group], message: 'Bonjour ##NAME##, votre commande est prête.' });
  if (sent.count !== messages) throw new Error(`the lot holds ${sent.count} messages, not ${messages}`);
  const accepted = Date.now();
  await until(() => smsc.submits - submitted >= messages / 10, 600_000, () => 'the lot did not start');
  const otpSent = Date.now();
  await call('POST', '/v1/otp/send', { channel: 'SMS', to: otpTo, message: 'Votre code est ##OTP##' });
  await until(() => smsc.arrivedAt(otpTo) !== undefined, 60_000, () => 'the OTP did not reach the SMSC');
  const otpMs = smsc.arrivedAt(otpTo) - otpSent;
  await until(() => smsc.submits - submitted >= messages + 1, 600_000, () => `the lot was not handed over: ${smsc.submits - submitted - 1} of ${messages}`);
  const seconds = (smsc.lastAt - smsc.firstAfter(submitted)) / 1000;
  return { seconds, per_second: Math.round(messages / seconds), accept_seconds: (accepted - requested) / 1000, otp_ms: otpMs };
}

/** The ids the SMSCs give: unique over the whole run, as a real SMSC's are, so that no receipt kept from one phase names a message of another. */
let messageIds = 0;

/**
 * An SMSC that takes every bind and every submit_sm, and notes in `noted` when each submit arrived (and to whom, for
 * the OTPs): SMSCs that share it count as one. With `receipts`, it answers each submit that asks for one with a final
 * receipt (DELIVRD), as an SMSC does once the handset has the message.
 */
export async function startSmsc({ receipts = false, noted = { times: [], otps: new Map() } } = {}) {
  const { times: arrivals, otps } = noted;
  let binds = 0;
  let receiptsSent = 0;
  const server = smpp.createServer((session) => {
    // answers go out as they are ready, as an SMSC's do
    session.socket.setNoDelay(true);
    session.on('bind_transceiver', (pdu) => {
      binds++;
      session.send(pdu.response());
    });
    session.on('enquire_link', (pdu) => session.send(pdu.response()));
    session.on('unbind', (pdu) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu) => {
      arrivals.push(Date.now());
      if (pdu.destination_addr.startsWith('22501')) otps.set(`+${pdu.destination_addr}`, Date.now());
      const messageId = String(++messageIds);
      session.send(pdu.response({ message_id: messageId }));
      if (receipts && (Number(pdu.registered_delivery) & 1) === 1) {
        receiptsSent++;
        session.deliver_sm({
          source_addr: pdu.destination_addr,
          destination_addr: pdu.source_addr,
          esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
          short_message: `id:${messageId} sub:001 dlvrd:001 submit date:2611220800 done date:2611220801 stat:DELIVRD err:000 text:`,
          receipted_message_id: messageId,
          message_state: 2,
        });
      }
    });
    session.on('error', () => undefined);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smpp://bench:bench@127.0.0.1:${server.address().port}`,
    get binds() {
      return binds;
    },
    get submits() {
      return arrivals.length;
    },
    get receipts() {
      return receiptsSent;
    },
    port: server.address().port,
    get lastAt() {
      return arrivals.at(-1);
    },
    firstAfter: (count) => arrivals[count],
    arrivedAt: (to) => otps.get(to),
    stop: async () => {
      for (const session of [...server.sessions]) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitFor(condition, timeoutMs, failure) {
  for (const deadline = Date.now() + timeoutMs; !condition(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(failure());
  }
}
