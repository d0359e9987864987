import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, DECORATORS, PartialType } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { isPlainObject } from '../../common/validation/request-validation.pipe.js';
import { isPhoneCountry } from '../../common/recipient.js';
import { COUNTRY_INVALID, COUNTRY_SCHEMA } from '../../common/validation/shared-rules.js';
import { Messages } from '../../common/validation/messages.js';
import { rule } from '../../common/validation/rule.js';
import { FRAUD_MODES, type FraudMode } from '../fraud-policy.js';
import { NUMBER_TYPES, type PhoneNumberType } from '../number-types.js';

/** A finite number with at most 4 decimals (any JSON number, `5e-324` too). */
const IsRate = rule(
  'isRate',
  (value) => typeof value === 'number' && Number.isFinite(value) && Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6,
  () => 'doit être un nombre entre 0 et 1 (4 décimales au plus)',
  { multipleOf: 0.0001 },
);

const MODE_TEXT = Messages.oneOf(FRAUD_MODES);
const MAX_COUNTRIES = 250;
const IsObject = (shape: string) => rule('isObject', isPlainObject, () => `doit être un objet ${shape}`)();
const IsCountryList = rule(
  'isCountryList',
  (value) => Array.isArray(value) && value.length <= MAX_COUNTRIES && value.every(isPhoneCountry),
  () => `doit être une liste de codes pays : ${COUNTRY_INVALID}`,
);
const IsNumberTypeList = rule(
  'isNumberTypeList',
  (value) => Array.isArray(value) && value.every((type) => (NUMBER_TYPES as readonly unknown[]).includes(type)),
  () => `doit être une liste de types parmi ${NUMBER_TYPES.join(', ')}`,
);

/** The mode of each group of signals. */
export class FraudModesDto {
  @ApiProperty({ enum: FRAUD_MODES, example: 'enforce', description: 'The safe and deny lists' })
  @IsOptional()
  @IsIn(FRAUD_MODES, { message: MODE_TEXT })
  lists!: FraudMode;

  @ApiProperty({ enum: FRAUD_MODES, example: 'enforce', description: 'The country policy' })
  @IsOptional()
  @IsIn(FRAUD_MODES, { message: MODE_TEXT })
  countries!: FraudMode;

  @ApiProperty({ enum: FRAUD_MODES, example: 'enforce', description: 'The number types of `number_types.block` (those of `monitor` are always recorded only)' })
  @IsOptional()
  @IsIn(FRAUD_MODES, { message: MODE_TEXT })
  number_types!: FraudMode;

  @ApiProperty({ enum: FRAUD_MODES, example: 'monitor', description: 'Velocity per address and user ref, prefix concentration, country bursts' })
  @IsOptional()
  @IsIn(FRAUD_MODES, { message: MODE_TEXT })
  velocity!: FraudMode;

  @ApiProperty({ enum: FRAUD_MODES, example: 'monitor', description: 'The low-conversion blocks' })
  @IsOptional()
  @IsIn(FRAUD_MODES, { message: MODE_TEXT })
  conversion!: FraudMode;
}

/** The schema states what readPolicyChange checks: `allow` and `deny` are exclusive. */
const OneCountryList: ClassDecorator = (target) => {
  const schemas = (Reflect.getOwnMetadata(DECORATORS.API_SCHEMA, target) ?? []) as object[];
  Reflect.defineMetadata(DECORATORS.API_SCHEMA, [...schemas, { maxProperties: 1 }], target);
};

/** `{allow: [...]}`, `{deny: [...]}` or `{}` (every country with a price). */
@OneCountryList
export class CountryPolicyDto {
  @ApiPropertyOptional({ type: 'array', items: COUNTRY_SCHEMA, maxItems: MAX_COUNTRIES, example: ['CI', 'SN'], description: 'Only these countries (ISO 3166-1 alpha-2); exclusive with `deny`' })
  @IsOptional()
  @IsCountryList()
  allow?: string[];

  @ApiPropertyOptional({ type: 'array', items: COUNTRY_SCHEMA, maxItems: MAX_COUNTRIES, example: ['UZ'], description: 'Every country but these; exclusive with `allow`' })
  @IsOptional()
  @IsCountryList()
  deny?: string[];
}

export class NumberTypesDto {
  @ApiProperty({ enum: NUMBER_TYPES, isArray: true, example: ['PREMIUM_RATE', 'SHARED_COST', 'TOLL_FREE', 'PAGER', 'VOICEMAIL', 'UAN'], description: 'Refused (recorded only when the group is in monitor mode)' })
  @IsOptional()
  @IsNumberTypeList()
  block!: PhoneNumberType[];

  @ApiProperty({ enum: NUMBER_TYPES, isArray: true, example: ['FIXED_LINE', 'VOIP', 'PERSONAL_NUMBER'], description: 'Recorded as `monitored`, never refused' })
  @IsOptional()
  @IsNumberTypeList()
  monitor!: PhoneNumberType[];
}

/** An integer within bounds; its first failure reported (the rules are applied last to first). */
const Count = (min: number, max: number) =>
  applyDecorators(
    ApiProperty({ type: 'integer', minimum: min, maximum: max }),
    Max(max, { message: Messages.between(min, max) }),
    Min(min, { message: Messages.between(min, max) }),
    IsInt({ message: Messages.integer }),
  );

export class FraudThresholdsDto {
  /** OTPs per end-user address per hour @example 10 */
  @IsOptional()
  @Count(1, 100_000)
  ip_per_hour!: number;

  /** OTPs per `user_ref` per hour @example 10 */
  @IsOptional()
  @Count(1, 100_000)
  user_per_hour!: number;

  /** Distinct numbers per prefix (the number without its last 4 digits) per hour; past it the prefix is blocked 1 h, then 2 h, … 24 h @example 20 */
  @IsOptional()
  @Count(1, 10_000)
  prefix_per_hour!: number;

  /** OTPs per destination country per 10 minutes @example 100 */
  @IsOptional()
  @Count(1, 1_000_000)
  country_per_10_min!: number;

  /** Codes of the last 24 h whose validity has ended before a prefix's or country's conversion is judged @example 30 */
  @IsOptional()
  @Count(1, 1_000_000)
  conversion_min_sends!: number;

  /** Verified ÷ those codes below which a prefix or country is blocked 6 h @example 0.2 */
  @ApiProperty({ type: Number, minimum: 0, maximum: 1, example: 0.2 })
  @IsOptional()
  @IsRate()
  @Min(0, { message: Messages.between(0, 1) })
  @Max(1, { message: Messages.between(0, 1) })
  conversion_min_rate!: number;
}

/** The account's fraud policy, whole (SPEC-3 §3). */
export class FraudPolicyDto {
  @ApiProperty({ type: FraudModesDto })
  modes!: FraudModesDto;
  @ApiProperty({ type: CountryPolicyDto, example: { allow: ['CI', 'SN'] }, description: '`{}` when no country policy is set' })
  countries!: CountryPolicyDto;
  @ApiProperty({ type: NumberTypesDto })
  number_types!: NumberTypesDto;
  @ApiProperty({ type: FraudThresholdsDto })
  thresholds!: FraudThresholdsDto;
}

/** The groups' modes, number types and thresholds as a change gives them: every key optional. */
export class FraudModesChangeDto extends PartialType(FraudModesDto) {}
export class NumberTypesChangeDto extends PartialType(NumberTypesDto) {}
export class FraudThresholdsChangeDto extends PartialType(FraudThresholdsDto) {}

/** A change of the policy: every key optional, and inside `modes`, `number_types` and `thresholds` too; a key left out keeps its value. */
export class UpdateFraudPolicyDto {
  @ApiPropertyOptional({ type: FraudModesChangeDto, example: { velocity: 'enforce' } })
  @IsOptional()
  @IsObject('{lists, countries, number_types, velocity, conversion}')
  modes?: Record<string, unknown>;

  @ApiPropertyOptional({ type: CountryPolicyDto, example: { allow: ['CI', 'SN'] }, description: 'Replaces the country policy; `{}` removes it' })
  @IsOptional()
  @IsObject('{allow} ou {deny}')
  countries?: Record<string, unknown>;

  @ApiPropertyOptional({ type: NumberTypesChangeDto, description: 'Each list given replaces the list' })
  @IsOptional()
  @IsObject('{block, monitor}')
  number_types?: Record<string, unknown>;

  @ApiPropertyOptional({ type: FraudThresholdsChangeDto, example: { prefix_per_hour: 50 } })
  @IsOptional()
  @IsObject('{ip_per_hour, user_per_hour, prefix_per_hour, country_per_10_min, conversion_min_sends, conversion_min_rate}')
  thresholds?: Record<string, unknown>;
}
