// The OTP send under the fraud guard: an account with the default policy beside one with the guard off and one with every
// velocity rule enforced, each new and used for its runs alone, in the same run (SPEC-3 §3: at least 0.97× and 0.9× the
// guard off). Enforced velocity counts each request's address and user ref, so its requests carry them, and it is
// measured against the guard off taking the same requests: an OTP stores and indexes its address and user ref whatever
// the guard does. The `send (API key)` account sends for every other scenario too: its many sends to one country cross
// the prefix threshold, so its default policy records monitored attempts and makes monitor blocks, which a new account's
// do not.
import { apiCaller, nextRecipient, ours } from './load.mjs';
import { runCli } from './processes.mjs';
import { summarise } from './report.mjs';

export const FRAUD_SEND = {
  defaults: 'send (default policy)',
  off: 'send (guard off)',
  velocity: 'send (velocity on)',
  offEndUsers: 'send (guard off, end users)',
};

const OFF = { modes: { lists: 'off', countries: 'off', number_types: 'off', velocity: 'off', conversion: 'off' } };
// every count read and enforced; the end users and prefixes of the load never reach their thresholds, a country's sends do not either
const VELOCITY = { modes: { velocity: 'enforce' }, thresholds: { country_per_10_min: 1000000 } };

/** An address and a user ref of their own for each request, as many end users sending once each. */
let endUsers = 0;
const endUser = () => {
  const n = endUsers++;
  return { client_ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, user_ref: `user-${n}` };
};

/** The three accounts and their scenarios, measured against the baseline's send like `send (API key)`. */
export async function fraudScenarios(url, env) {
  const account = async (name, policy) => {
    const created = runCli(env, 'account:create', '--name', name, '--balance', '10000000000', '--sender', 'BENCH');
    const auth = `Bearer ${created.api_key}`;
    if (policy) await apiCaller(url, auth)('PUT', '/v1/fraud/policy', policy);
    return auth;
  };
  const defaultsAuth = await account('Bench guard defaults', null);
  const offAuth = await account('Bench guard off', OFF);
  const velocityAuth = await account('Bench velocity', VELOCITY);
  const withEndUser = (auth) => ({
    ...ours.send(auth),
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ channel: 'SMS', to: nextRecipient(), message: 'Votre code est ##OTP##. Il expire dans 5 minutes.', ...endUser() }),
    }),
  });
  return [
    { name: FRAUD_SEND.defaults, against: 'send', run: async () => ours.send(defaultsAuth) },
    { name: FRAUD_SEND.off, against: 'send', run: async () => ours.send(offAuth) },
    { name: FRAUD_SEND.velocity, against: 'send', run: async () => withEndUser(velocityAuth) },
    { name: FRAUD_SEND.offEndUsers, against: 'send', run: async () => withEndUser(offAuth) },
  ];
}

/**
 * The scenarios in a round's order: each round turns the fraud guard's by one, so that over as many rounds each is
 * measured once at each place among them (on MariaDB the first of them, after the floor and the baseline, runs slower,
 * whichever it is).
 */
export function inRoundOrder(scenarios, round) {
  const names = new Set(Object.values(FRAUD_SEND));
  const group = scenarios.filter((scenario) => names.has(scenario.name));
  const turned = group.map((_, i) => group[(i + round) % group.length]);
  return scenarios.map((scenario) => (names.has(scenario.name) ? turned.shift() : scenario));
}

/** Each connection count's send with the default policy and with every velocity rule enforced, as a ratio to the guard off taking the same requests. */
export function printFraudGuard(scenarios) {
  for (const [connections, runs] of Object.entries(scenarios[FRAUD_SEND.defaults] ?? {})) {
    const measured = [runs, scenarios[FRAUD_SEND.off]?.[connections], scenarios[FRAUD_SEND.velocity]?.[connections], scenarios[FRAUD_SEND.offEndUsers]?.[connections]];
    if (!measured.every(Array.isArray)) continue;
    const [withDefaults, without, withVelocity, withoutForEndUsers] = measured.map((each) => summarise(each).rps);
    console.log(
      `OTP send c=${connections} under the fraud guard: default policy ${withDefaults} req/s, ${(withDefaults / without).toFixed(2)}× the guard off (${without} req/s); ` +
        `every velocity rule enforced ${withVelocity} req/s, ${(withVelocity / withoutForEndUsers).toFixed(2)}× the guard off for the same requests (${withoutForEndUsers} req/s), ` +
        `${(withVelocity / without).toFixed(2)}× the guard off for requests without an address or a user ref`,
    );
  }
}
