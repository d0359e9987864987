import { applyChange, DEFAULT_POLICY, type FraudPolicyChange } from './fraud-policy.js';
import { FraudState, type ActiveBlock, type ListEntry } from './fraud-state.js';
import { distinctReasons, finding, isSafe, staticFindings, type SendSubject } from './fraud-signals.rules.js';

const NOW = new Date('2026-11-22T08:00:00.000Z');
const LATER = new Date(NOW.getTime() + 3600_000);

const sms = (recipient: string, country: string, dialCode: string, extra: Partial<SendSubject> = {}): SendSubject => ({
  channel: 'SMS',
  recipient,
  country,
  nationalNumber: recipient.slice(dialCode.length),
  prefix: recipient.slice(0, -4),
  clientIp: null,
  userRef: null,
  ...extra,
});
const CI = sms('+2250707070707', 'CI', '+225');
const PREMIUM = sms('+33899123456', 'FR', '+33');

const stateOf = (change: FraudPolicyChange = {}, entries: ListEntry[] = [], blocks: ActiveBlock[] = []) =>
  new FraudState(1, applyChange(DEFAULT_POLICY, change), entries, blocks);
const block = (list: ListEntry['list'], kind: ListEntry['kind'], value: string, expiresAt: Date | null = null): ListEntry => ({ list, kind, value, expiresAt });
const reasons = (state: FraudState, subject: SendSubject, at = NOW) => staticFindings(state, subject, at).map((found) => [found.reason, found.enforced]);

describe('fraud signals', () => {
  it('finds nothing for a mobile number with the default policy', () => {
    expect(reasons(stateOf(), CI)).toEqual([]);
  });

  it('refuses a premium-rate number and records a fixed-line one with the default policy', () => {
    expect(reasons(stateOf(), PREMIUM)).toEqual([['number_type_premium_rate', true]]);
    expect(reasons(stateOf(), sms('+33140000000', 'FR', '+33'))).toEqual([['number_type_fixed_line', false]]);
  });

  it.each([
    [block('block', 'phone', '+2250707070707'), {}],
    [block('block', 'prefix', '+22507'), {}],
    [block('block', 'country', 'CI'), {}],
    [block('block', 'ip', '203.0.113.0/24'), { clientIp: '203.0.113.250' }],
    [block('block', 'ip', '2001:db8::/32'), { clientIp: '2001:db8::1' }],
    [block('block', 'user_ref', 'u-1'), { userRef: 'u-1' }],
  ])('matches the deny-list entry %j', (entry, extra) => {
    expect(reasons(stateOf({}, [entry]), { ...CI, ...extra })).toEqual([['in_block_list', true]]);
  });

  it('does not match an address outside a range, nor an entry that has expired', () => {
    expect(reasons(stateOf({}, [block('block', 'ip', '203.0.113.0/24')]), { ...CI, clientIp: '203.0.114.1' })).toEqual([]);
    expect(reasons(stateOf({}, [block('block', 'phone', CI.recipient, LATER)]), CI, LATER)).toEqual([]);
  });

  it('gives a temporary entry its end as the finding\'s end', () => {
    expect(staticFindings(stateOf({}, [block('block', 'phone', CI.recipient, LATER)]), CI, NOW)[0]!.until).toEqual(LATER);
  });

  it('reads the country policy as an allow list or a deny list, and never for a number of no country', () => {
    expect(reasons(stateOf({ countries: { allow: ['SN'] } }), CI)).toEqual([['country_not_allowed', true]]);
    expect(reasons(stateOf({ countries: { deny: ['CI'] } }), CI)).toEqual([['country_not_allowed', true]]);
    expect(reasons(stateOf({ countries: { deny: ['SN'] } }), CI)).toEqual([]);
    expect(reasons(stateOf({ countries: { allow: ['SN'] } }), { ...CI, country: null })).toEqual([]);
  });

  it('records in monitor mode and skips when off', () => {
    expect(reasons(stateOf({ modes: { number_types: 'monitor' } }), PREMIUM)).toEqual([['number_type_premium_rate', false]]);
    expect(reasons(stateOf({ modes: { number_types: 'off' } }), PREMIUM)).toEqual([]);
  });

  it('applies a block as its group is now: refusing in enforce mode, recording in monitor mode, not at all when off', () => {
    const prefixBlock: ActiveBlock = { id: 'b', scope: 'prefix', value: '+225070707', reason: 'prefix_velocity', mode: 'enforce', until: LATER };
    expect(reasons(stateOf({ modes: { velocity: 'enforce' } }, [], [prefixBlock]), CI)).toEqual([['prefix_velocity', true]]);
    expect(reasons(stateOf({ modes: { velocity: 'monitor' } }, [], [prefixBlock]), CI)).toEqual([['prefix_velocity', false]]);
    expect(reasons(stateOf({ modes: { velocity: 'off' } }, [], [prefixBlock]), CI)).toEqual([]);
    expect(reasons(stateOf({ modes: { velocity: 'enforce' } }, [], [{ ...prefixBlock, mode: 'monitor' }]), CI)).toEqual([['prefix_velocity', false]]);
    expect(reasons(stateOf({ modes: { velocity: 'enforce' } }, [], [prefixBlock]), CI, LATER)).toEqual([]);
  });

  it('never applies a phone signal to an e-mail OTP', () => {
    const email: SendSubject = { ...CI, channel: 'EMAIL', recipient: 'awa@example.com', country: null, nationalNumber: null, prefix: null };
    expect(reasons(stateOf({ countries: { allow: ['SN'] } }, [block('block', 'country', 'CI')]), email)).toEqual([]);
  });

  it('skips every signal for a number or a user ref on the safe list, while lists are on', () => {
    expect(isSafe(stateOf({}, [block('allow', 'phone', PREMIUM.recipient)]), PREMIUM, NOW.getTime())).toBe(true);
    expect(isSafe(stateOf({}, [block('allow', 'user_ref', 'vip')]), { ...PREMIUM, userRef: 'vip' }, NOW.getTime())).toBe(true);
    expect(isSafe(stateOf({ modes: { lists: 'off' } }, [block('allow', 'phone', PREMIUM.recipient)]), PREMIUM, NOW.getTime())).toBe(false);
  });

  it('keeps one finding per reason, the latest end, in the order the signals are read', () => {
    const found = distinctReasons([
      finding('prefix_velocity', 'enforce', 'a', NOW),
      finding('in_block_list', 'enforce', 'b', null),
      finding('prefix_velocity', 'enforce', 'c', LATER),
    ]);
    expect(found.map((each) => [each.reason, each.until])).toEqual([
      ['in_block_list', null],
      ['prefix_velocity', LATER],
    ]);
  });
});
