export const REACHABILITIES = ['reachable', 'absent', 'undeliverable', 'bad_number', 'blacklisted', 'unknown'] as const;
export type Reachability = (typeof REACHABILITIES)[number];

/** What a provider learnt about a number; null where it cannot tell. The IMSI, when a vendor gives it, is not kept. */
export interface HlrAnswer {
  valid: boolean | null;
  reachable: Reachability;
  ported: boolean | null;
  roaming: boolean | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** The network serving the number now (after porting). */
  mccmnc: string | null;
  networkName: string | null;
  /** The network the number was allocated to. */
  originalMccmnc: string | null;
  originalNetworkName: string | null;
  roamingCountry: string | null;
  roamingMccmnc: string | null;
  providerId: string | null;
  providerStatus: string | null;
}

/** The lookup itself failed (the vendor refused it, timed out or was unreachable): no answer, and the charge is refunded. */
export class HlrLookupFailed extends Error {
  override readonly name = 'HlrLookupFailed';
}

/** One HLR source, chosen by `HLR_PROVIDER`. */
export interface HlrProvider {
  /** Shown in the lookup's `provider`. */
  readonly name: string;
  /** Looks up one E.164 number; throws HlrLookupFailed when no answer came. */
  lookup(number: string): Promise<HlrAnswer>;
}

export const HLR_PROVIDER = Symbol('HLR_PROVIDER');
/** Sandbox lookups never reach a vendor (SandboxHlrProvider). */
export const SANDBOX_HLR_PROVIDER = Symbol('SANDBOX_HLR_PROVIDER');
