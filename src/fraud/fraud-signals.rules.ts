import { NUMBER_TYPE_REASONS, numberTypeReason, type FraudMode, type FraudPolicy, type SignalGroup } from './fraud-policy.js';
import type { ActiveBlock, FraudState, Listed } from './fraud-state.js';
import { parseIp } from './ip-address.js';
import { numberType } from './number-types.js';

/** What the guard reads of a send. */
export interface SendSubject {
  channel: 'SMS' | 'EMAIL';
  /** E.164, or an e-mail address. */
  recipient: string;
  /** SMS: the destination's ISO-2 country (null for a number of no single country), its national number and its prefix. */
  country: string | null;
  nationalNumber: string | null;
  /** The number without its last four digits (`+99899394` of `+998993941234`), whose distinct numbers are counted. */
  prefix: string | null;
  /** Canonical (see canonicalIp). */
  clientIp: string | null;
  userRef: string | null;
}

/** One signal that fired. */
export interface Finding {
  reason: string;
  /** Its group is in enforce mode (and, for a block, the block was made so): the send is refused. */
  enforced: boolean;
  /** The sentence of the 403's `errors`. */
  error: string;
  /** When waiting lifts it (a temporary block, a velocity window); null when waiting does not help. */
  until: Date | null;
}

/** Every reason code, in the order the signals are evaluated (SPEC-3 §3). */
export const FRAUD_REASONS = [
  'in_block_list',
  'country_not_allowed',
  ...NUMBER_TYPE_REASONS,
  'ip_velocity',
  'user_velocity',
  'prefix_velocity',
  'country_burst',
  'low_conversion',
];

const byReasonOrder = (a: Finding, b: Finding): number => FRAUD_REASONS.indexOf(a.reason) - FRAUD_REASONS.indexOf(b.reason);

/** The safe list: a listed number or user ref skips every signal (not the per-recipient limit). */
export function isSafe(state: FraudState, subject: SendSubject, now: number): boolean {
  if (state.policy.modes.lists === 'off') return false;
  return (subject.channel === 'SMS' && state.isAllowed('phone', subject.recipient, now)) || state.isAllowed('user_ref', subject.userRef, now);
}

/**
 * The signals read from the cached settings alone: the deny list, the country
 * policy, the number type, and the prefix's and country's active blocks. A
 * signal that cannot be read (no address, a number of no country, an unknown
 * type) finds nothing.
 */
export function staticFindings(state: FraudState, subject: SendSubject, now: Date): Finding[] {
  const findings: Finding[] = [];
  const { modes } = state.policy;
  const at = now.getTime();
  if (modes.lists !== 'off' && !state.bare) {
    const listed = denial(state, subject, at);
    if (listed) findings.push(finding('in_block_list', modes.lists, LISTED[listed.kind](listed.value), Number.isFinite(listed.expiresAt) ? new Date(listed.expiresAt) : null));
  }
  if (subject.channel !== 'SMS') return findings;
  const country = countryFinding(state.policy, subject.country);
  if (country) findings.push(country);
  const type = typeFinding(state.policy, subject);
  if (type) findings.push(type);
  if (!state.bare) {
    const blocks = [...state.activeBlocks('prefix', subject.prefix, at), ...state.activeBlocks('country', subject.country, at)];
    for (const block of blocks) {
      const blocked = blockFinding(state.policy, block);
      if (blocked) findings.push(blocked);
    }
  }
  return findings;
}

/** The first deny-list entry the send matches, in the order number, prefix, country, address, user ref. */
function denial(state: FraudState, subject: SendSubject, now: number): Listed | null {
  const sms = subject.channel === 'SMS';
  return (
    (sms ? (state.denial('phone', subject.recipient, now) ?? state.prefixDenial(subject.recipient, now) ?? state.denial('country', subject.country, now)) : null) ??
    state.ipDenial(subject.clientIp, () => parseIp(subject.clientIp!), now) ??
    state.denial('user_ref', subject.userRef, now)
  );
}

const LISTED: Record<Listed['kind'], (value: string) => string> = {
  phone: () => 'to: numéro sur la liste de blocage',
  prefix: (value) => `to: préfixe ${value} sur la liste de blocage`,
  country: (value) => `to: pays ${value} sur la liste de blocage`,
  ip: (value) => `client_ip: adresse ${value} sur la liste de blocage`,
  user_ref: () => 'user_ref: utilisateur sur la liste de blocage',
};

function countryFinding(policy: FraudPolicy, country: string | null): Finding | null {
  const mode = policy.modes.countries;
  if (mode === 'off' || country === null) return null;
  const refused = 'allow' in policy.countries ? !policy.countries.allow.includes(country) : 'deny' in policy.countries && policy.countries.deny.includes(country);
  return refused ? finding('country_not_allowed', mode, `to: pays ${country} non autorisé`, null) : null;
}

function typeFinding(policy: FraudPolicy, subject: SendSubject): Finding | null {
  const mode = policy.modes.number_types;
  const lists = policy.number_types;
  if (mode === 'off' || subject.country === null || (lists.block.length === 0 && lists.monitor.length === 0)) return null;
  const type = numberType(subject.country, subject.nationalNumber!);
  if (type === undefined) return null;
  const error = `to: numéro de type ${type} refusé`;
  if (lists.block.includes(type)) return finding(numberTypeReason(type), mode, error, null);
  return lists.monitor.includes(type) ? finding(numberTypeReason(type), 'monitor', error, null) : null;
}

/** Which group's mode rules a block: the prefix concentration's (velocity), or the conversion's. */
const BLOCK_GROUP: Record<ActiveBlock['reason'], SignalGroup> = { prefix_velocity: 'velocity', low_conversion: 'conversion' };

/** A block refuses when its group is in enforce mode and it was made so; a group turned to monitor or off relaxes its blocks at once. */
function blockFinding(policy: FraudPolicy, block: ActiveBlock): Finding | null {
  const mode = policy.modes[BLOCK_GROUP[block.reason]];
  if (mode === 'off') return null;
  return finding(block.reason, block.mode === 'monitor' ? 'monitor' : mode, blockError(block.scope, block.value, block.reason), block.until);
}

export function blockError(scope: ActiveBlock['scope'], value: string, reason: ActiveBlock['reason']): string {
  const why = reason === 'prefix_velocity' ? "trop d'envois" : 'codes rarement vérifiés';
  return `to: ${scope === 'prefix' ? 'préfixe' : 'pays'} ${value} bloqué temporairement (${why})`;
}

export function finding(reason: string, mode: Exclude<FraudMode, 'off'>, error: string, until: Date | null): Finding {
  return { reason, enforced: mode === 'enforce', error, until };
}

/** Findings with one entry per reason (the latest `until` kept), in the guard's order. */
export function distinctReasons(findings: readonly Finding[]): Finding[] {
  const byReason = new Map<string, Finding>();
  for (const found of findings) {
    const known = byReason.get(found.reason);
    if (!known || (known.until !== null && (found.until === null || found.until > known.until))) byReason.set(found.reason, found);
  }
  return [...byReason.values()].sort(byReasonOrder);
}
