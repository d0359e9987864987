import { NUMBER_TYPES, type PhoneNumberType } from './number-types.js';

/** What a group of signals does: refuse the send (`enforce`), let it through and record it (`monitor`), or nothing (`off`). */
export const FRAUD_MODES = ['enforce', 'monitor', 'off'] as const;
export type FraudMode = (typeof FRAUD_MODES)[number];

/** The groups of signals, each with its own mode (SPEC-3 §3). */
export const SIGNAL_GROUPS = ['lists', 'countries', 'number_types', 'velocity', 'conversion'] as const;
export type SignalGroup = (typeof SIGNAL_GROUPS)[number];

export interface FraudThresholds {
  ip_per_hour: number;
  user_per_hour: number;
  prefix_per_hour: number;
  country_per_10_min: number;
  conversion_min_sends: number;
  conversion_min_rate: number;
}

/** A country policy lets through only the countries of `allow`, or every country but those of `deny`; none lets every country with a price. */
export type CountryPolicy = { allow: string[] } | { deny: string[] } | Record<string, never>;

export interface FraudPolicy {
  modes: Record<SignalGroup, FraudMode>;
  countries: CountryPolicy;
  number_types: { block: PhoneNumberType[]; monitor: PhoneNumberType[] };
  thresholds: FraudThresholds;
}

/** A change to a policy: every key optional; a key left out keeps its value, `countries: {}` removes the country policy. */
export interface FraudPolicyChange {
  modes?: Partial<Record<SignalGroup, FraudMode>>;
  countries?: CountryPolicy;
  number_types?: { block?: PhoneNumberType[]; monitor?: PhoneNumberType[] };
  thresholds?: Partial<FraudThresholds>;
}

export const DEFAULT_POLICY: FraudPolicy = Object.freeze({
  modes: { lists: 'enforce', countries: 'enforce', number_types: 'enforce', velocity: 'monitor', conversion: 'monitor' },
  countries: {},
  number_types: {
    block: ['PREMIUM_RATE', 'SHARED_COST', 'TOLL_FREE', 'PAGER', 'VOICEMAIL', 'UAN'],
    monitor: ['FIXED_LINE', 'VOIP', 'PERSONAL_NUMBER'],
  },
  thresholds: {
    ip_per_hour: 10,
    user_per_hour: 10,
    prefix_per_hour: 20,
    country_per_10_min: 100,
    conversion_min_sends: 30,
    conversion_min_rate: 0.2,
  },
}) as FraudPolicy;

/** The policy `change` makes of `policy`: modes and thresholds key by key, the country policy and each number-type list whole. */
export function applyChange(policy: FraudPolicy, change: FraudPolicyChange): FraudPolicy {
  return {
    modes: { ...policy.modes, ...change.modes },
    countries: change.countries ?? policy.countries,
    number_types: {
      block: change.number_types?.block ?? policy.number_types.block,
      monitor: change.number_types?.monitor ?? policy.number_types.monitor,
    },
    thresholds: { ...policy.thresholds, ...change.thresholds },
  };
}

/** A stored policy (JSON) read back over the defaults, so that a key added later takes its default. */
export function readPolicy(stored: string | null): FraudPolicy {
  if (stored === null) return DEFAULT_POLICY;
  return applyChange(DEFAULT_POLICY, JSON.parse(stored) as FraudPolicyChange);
}

/** The reason code of a number type (`number_type_premium_rate`). */
export const numberTypeReason = (type: PhoneNumberType): string => `number_type_${type.toLowerCase()}`;

export const NUMBER_TYPE_REASONS = NUMBER_TYPES.map(numberTypeReason);
