import { ApiError } from '../common/errors/api-error.js';
import { readListEntry } from './fraud-list.rules.js';
import type { AddListEntryDto } from './dto/fraud-list.dto.js';

const NOW = new Date('2026-11-22T08:00:00.000Z');
const read = (dto: Partial<AddListEntryDto>) => readListEntry({ list: 'block', kind: 'phone', value: '', ...dto } as AddListEntryDto, NOW);
const refusal = (dto: Partial<AddListEntryDto>) => {
  try {
    read(dto);
  } catch (error) {
    return (error as ApiError).envelope.errors;
  }
  throw new Error('not refused');
};

describe('readListEntry', () => {
  it.each([
    ['phone', '00225 07 07 07 07 07', '+2250707070707'],
    ['prefix', '998 99 394', '+99899394'],
    ['country', 'UZ', 'UZ'],
    ['ip', '::ffff:192.0.2.1', '192.0.2.1'],
    ['ip', '192.0.2.77/24', '192.0.2.0/24'],
    ['ip', '2001:DB8:0:0::1/48', '2001:db8::/48'],
    ['user_ref', 'client 42', 'client 42'],
  ] as const)('stores a %s entry %j as %j', (kind, value, stored) => {
    expect(read({ kind, value }).value).toBe(stored);
  });

  it('refuses a value that is not one of its kind, a past expiry and a safe-listed prefix', () => {
    expect(refusal({ kind: 'ip', value: '192.0.2' })).toEqual(['value: adresse IP ou plage CIDR invalide']);
    expect(refusal({ kind: 'country', value: 'ci' })).toEqual(['value: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)']);
    expect(refusal({ kind: 'phone', value: '+2250707070707', expires_at: NOW.toISOString() })).toEqual(['expires_at: doit être dans le futur']);
    expect(refusal({ list: 'allow', kind: 'country', value: 'CI' })).toEqual(["kind: la liste allow n'accepte que phone ou user_ref"]);
  });
});
