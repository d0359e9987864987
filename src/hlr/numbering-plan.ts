/** The network a block of mobile numbers was allocated to. */
export interface Network {
  name: string;
  /** MCC followed by MNC, for example `61203`. */
  mccmnc: string;
}

type Plan = ReadonlyArray<readonly [prefix: string, network: Network]>;

const range = (from: number, to: number, network: Network): Array<[string, Network]> =>
  Array.from({ length: to - from + 1 }, (_, n) => [String(from + n), network]);

const ORANGE_CI = { name: "Orange Côte d'Ivoire", mccmnc: '61203' };
const MTN_CI = { name: "MTN Côte d'Ivoire", mccmnc: '61205' };
const MOOV_CI = { name: "Moov Africa Côte d'Ivoire", mccmnc: '61202' };
const ORANGE_SN = { name: 'Orange Sénégal', mccmnc: '60801' };
const FREE_SN = { name: 'Free Sénégal', mccmnc: '60802' };
const EXPRESSO_SN = { name: 'Expresso Sénégal', mccmnc: '60803' };
const MTN_CM = { name: 'MTN Cameroon', mccmnc: '62401' };
const ORANGE_CM = { name: 'Orange Cameroun', mccmnc: '62402' };
const ORANGE_FR = { name: 'Orange France', mccmnc: '20801' };
const SFR = { name: 'SFR', mccmnc: '20810' };
const BOUYGUES = { name: 'Bouygues Telecom', mccmnc: '20820' };
const FREE_FR = { name: 'Free Mobile', mccmnc: '20815' };

/**
 * Mobile number blocks by national significant number prefix, as the
 * regulators allocated them (ARTCI, ARTP, ART Cameroun, ARCEP). A block names
 * the network a number was first given to: a ported number has moved since,
 * which only a live HLR query can tell.
 */
const PLANS: Readonly<Record<string, Plan>> = {
  CI: [
    ['07', ORANGE_CI],
    ['05', MTN_CI],
    ['01', MOOV_CI],
  ],
  SN: [
    ['77', ORANGE_SN],
    ['78', ORANGE_SN],
    ['76', FREE_SN],
    ['70', EXPRESSO_SN],
  ],
  CM: [
    ['67', MTN_CM],
    ...range(650, 654, MTN_CM),
    ...range(680, 684, MTN_CM),
    ['69', ORANGE_CM],
    ...range(655, 659, ORANGE_CM),
  ],
  FR: [
    ['607', ORANGE_FR],
    ['608', ORANGE_FR],
    ...range(630, 633, ORANGE_FR),
    ...range(670, 689, ORANGE_FR),
    ['603', SFR],
    ...range(609, 629, SFR),
    ...range(660, 669, BOUYGUES),
    ['698', BOUYGUES],
    ['699', BOUYGUES],
    ['651', FREE_FR],
    ['652', FREE_FR],
    ['695', FREE_FR],
    ...range(749, 758, FREE_FR),
  ],
};

/** The network whose block holds the number (longest prefix first); null outside the blocks the plan knows. */
export function originalNetwork(country: string, nationalNumber: string): Network | null {
  let found: { prefix: string; network: Network } | null = null;
  for (const [prefix, network] of PLANS[country] ?? []) {
    if (nationalNumber.startsWith(prefix) && (!found || prefix.length > found.prefix.length)) found = { prefix, network };
  }
  return found?.network ?? null;
}
