import { toAmount } from '../common/money.js';
import type { HlrLookupDto } from './dto/hlr-lookup.dto.js';
import type { HlrLookupRecord } from './hlr-lookup.repository.js';

/** A lookup as the routes and the `hlr.completed` event show it. */
export const toHlrLookupDto = (lookup: HlrLookupRecord): HlrLookupDto => ({
  id: lookup.id,
  company_id: lookup.accountId,
  lot: lookup.lot,
  external_id: lookup.externalId,
  number: lookup.number,
  status: lookup.status,
  valid: lookup.valid,
  reachable: lookup.reachable,
  ported: lookup.ported,
  roaming: lookup.roaming,
  country: lookup.country,
  mccmnc: lookup.mccmnc,
  mcc: lookup.mccmnc?.slice(0, 3) ?? null,
  mnc: lookup.mccmnc?.slice(3) ?? null,
  network_name: lookup.networkName,
  original_mccmnc: lookup.originalMccmnc,
  original_network_name: lookup.originalNetworkName,
  roaming_country: lookup.roamingCountry,
  roaming_mccmnc: lookup.roamingMccmnc,
  provider: lookup.provider,
  provider_id: lookup.providerId,
  provider_status: lookup.providerStatus,
  error: lookup.error,
  amount: toAmount(lookup.amount),
  webhook_url: lookup.webhookUrl,
  webhook_response: lookup.webhookResponse,
  created_by: lookup.createdBy,
  created_at: lookup.createdAt.toISOString(),
  done_at: lookup.doneAt?.toISOString() ?? null,
  sandbox: lookup.sandbox,
});
