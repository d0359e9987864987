import { ApiError } from '../common/errors/api-error.js';
import { validateAs } from '../common/validation/request-validation.pipe.js';
import { CountryPolicyDto, FraudModesDto, FraudThresholdsDto, NumberTypesDto, type UpdateFraudPolicyDto } from './dto/fraud-policy.dto.js';
import type { CountryPolicy, FraudPolicy, FraudPolicyChange } from './fraud-policy.js';

/**
 * The change a PUT asks for, each object checked field by field
 * (`thresholds.ip_per_hour: …`); 400 with every invalid field, or for a
 * country policy with both lists.
 */
export function readPolicyChange(dto: UpdateFraudPolicyDto): FraudPolicyChange {
  const errors: string[] = [];
  const part = <T extends object>(type: new () => T, raw: Record<string, unknown> | undefined, name: string): T | undefined => {
    if (raw === undefined) return undefined;
    const checked = validateAs(type, raw, `${name}.`);
    errors.push(...checked.errors);
    return definedOnly(checked.dto);
  };
  const change: FraudPolicyChange = {
    modes: part(FraudModesDto, dto.modes, 'modes'),
    countries: part(CountryPolicyDto, dto.countries, 'countries') as CountryPolicy | undefined,
    number_types: part(NumberTypesDto, dto.number_types, 'number_types'),
    thresholds: part(FraudThresholdsDto, dto.thresholds, 'thresholds'),
  };
  if (change.countries && 'allow' in change.countries && 'deny' in change.countries) errors.push('countries: allow et deny sont exclusifs');
  if (errors.length > 0) throw ApiError.validation(errors);
  return change;
}

/** The policy a change makes, once merged: 400 for a number type both refused and monitored. */
export function checkPolicy(policy: FraudPolicy): FraudPolicy {
  const both = policy.number_types.block.filter((type) => policy.number_types.monitor.includes(type));
  if (both.length > 0) throw ApiError.invalidField('number_types', `un type ne peut être à la fois dans block et monitor (${both.join(', ')})`);
  return policy;
}

/** The fields the body gave (validateAs copies only those). */
function definedOnly<T extends object>(dto: T): T {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined)) as T;
}
