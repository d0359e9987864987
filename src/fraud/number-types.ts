import { Metadata, type CountryCode, type NumberType } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/max/metadata';

/** The types libphonenumber-js tells apart with its full metadata (`libphonenumber-js/max`). */
export const NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'FIXED_LINE_OR_MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const;
export type PhoneNumberType = (typeof NUMBER_TYPES)[number];

/** The types checked after FIXED_LINE, in libphonenumber-js's order (`getNumberType`). */
const NON_FIXED_LINE_TYPES = ['MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'] as const;

interface TypePattern {
  pattern: RegExp;
  lengths: readonly number[] | undefined;
}

/** A country's patterns, compiled once. */
interface Plan {
  national: RegExp;
  fixedLine: TypePattern | null;
  mobile: TypePattern | null;
  /** MOBILE's pattern is absent or empty where it is the fixed-line one (the US): a fixed-line match is FIXED_LINE_OR_MOBILE. */
  mobileSameAsFixed: boolean;
  others: Array<[NumberType, TypePattern]>;
}

/** The parts of libphonenumber-js's Metadata its typings leave out. */
interface Numbering {
  hasCountry(country: CountryCode): boolean;
  selectNumberingPlan(country: CountryCode): void;
  nationalNumberPattern(): string;
  type(type: NumberType): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

const plans = new Map<string, Plan | null>();

/**
 * The type of a valid number of `country`, given its national significant
 * number (the E.164 digits after the calling code), as libphonenumber-js's
 * `getType()` reads it with its full metadata; undefined when it cannot tell.
 * The same rules as its `getNumberType`, with each country's patterns compiled
 * once: the library builds its metadata object and regular expressions anew
 * on every call, some 15 µs a number, which the OTP send cannot spend.
 */
export function numberType(country: string, nationalNumber: string): PhoneNumberType | undefined {
  const plan = planOf(country);
  if (!plan || !plan.national.test(nationalNumber)) return undefined;
  if (plan.fixedLine && matches(plan.fixedLine, nationalNumber)) {
    return plan.mobileSameAsFixed || (plan.mobile && matches(plan.mobile, nationalNumber)) ? 'FIXED_LINE_OR_MOBILE' : 'FIXED_LINE';
  }
  for (const [type, pattern] of plan.others) if (matches(pattern, nationalNumber)) return type as PhoneNumberType;
  return undefined;
}

function matches(type: TypePattern, nationalNumber: string): boolean {
  if (type.lengths && !type.lengths.includes(nationalNumber.length)) return false;
  return type.pattern.test(nationalNumber);
}

function planOf(country: string): Plan | null {
  let plan = plans.get(country);
  if (plan === undefined) {
    plan = compile(country);
    plans.set(country, plan);
  }
  return plan;
}

function compile(country: string): Plan | null {
  const numbering = new Metadata(metadata) as unknown as Numbering;
  if (!numbering.hasCountry(country as CountryCode)) return null;
  numbering.selectNumberingPlan(country as CountryCode);
  const typeOf = (name: NumberType): TypePattern | null => {
    const type = numbering.type(name);
    const pattern = type?.pattern();
    return pattern ? { pattern: whole(pattern), lengths: type!.possibleLengths() } : null;
  };
  const mobile = numbering.type('MOBILE');
  return {
    national: whole(numbering.nationalNumberPattern()),
    fixedLine: typeOf('FIXED_LINE'),
    mobile: typeOf('MOBILE'),
    mobileSameAsFixed: !mobile || mobile.pattern() === '',
    others: NON_FIXED_LINE_TYPES.flatMap((name) => {
      const type = typeOf(name);
      return type ? [[name, type] as [NumberType, TypePattern]] : [];
    }),
  };
}

const whole = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);
