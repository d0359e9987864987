import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { HlrAnswer, HlrProvider } from './hlr-provider.js';
import { originalNetwork } from './numbering-plan.js';

/** Types libphonenumber gives numbers that may be mobile, and so belong to a mobile network's block. */
const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * Answers without a network: validity, number type (`provider_status`) and
 * country from libphonenumber's full metadata, the network the number was
 * allocated to from the numbering plan. Whether the subscriber is reachable,
 * ported or roaming only the network knows: `unknown` and null.
 */
export class LocalHlrProvider implements HlrProvider {
  readonly name = 'local';

  lookup(number: string): Promise<HlrAnswer> {
    const parsed = parsePhoneNumberFromString(number);
    const valid = parsed?.isValid() ?? false;
    const type = valid ? (parsed!.getType() ?? 'UNKNOWN') : 'INVALID';
    const country = parsed?.country ?? null;
    const network = valid && country && MOBILE_TYPES.has(type) ? originalNetwork(country, parsed!.nationalNumber) : null;
    return Promise.resolve({
      valid,
      reachable: 'unknown',
      ported: null,
      roaming: null,
      country,
      mccmnc: network?.mccmnc ?? null,
      networkName: network?.name ?? null,
      originalMccmnc: network?.mccmnc ?? null,
      originalNetworkName: network?.name ?? null,
      roamingCountry: null,
      roamingMccmnc: null,
      providerId: null,
      providerStatus: type,
    });
  }
}
