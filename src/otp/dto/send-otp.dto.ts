import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { LANGUAGES, type Language } from '../../common/language.js';
import { OTP_TYPES, type OtpType } from '../otp-code.js';
import { FitsWithCode, HasPlaceholder, IsClientIp, IsRecipientForChannel, IsSenderForChannel, IsUserRef, OTP_EXPIRY_SECONDS, OTP_LENGTHS, OTP_PLACEHOLDER } from './otp-rules.js';

export const CHANNELS = ['SMS', 'EMAIL'] as const;
export type Channel = (typeof CHANNELS)[number];

export class SendOtpDto {
  @ApiProperty({ enum: CHANNELS, example: 'SMS', description: 'Sending channel' })
  @IsDefined({ message: Messages.required })
  @IsIn(CHANNELS, { message: Messages.oneOf(CHANNELS) })
  channel!: Channel;

  @ApiPropertyOptional({
    example: 'DEMO',
    description:
      "SMS: a sender registered for the account (matched without case). EMAIL: the From display name. Default: the account's default sender.",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsSenderForChannel()
  sender?: string;

  @ApiProperty({
    example: '+2250707070707',
    description: 'SMS: a phone number in international form (+225…, 00225… or 225…). EMAIL: an e-mail address.',
  })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @IsRecipientForChannel()
  to!: string;

  @ApiProperty({
    example: 'Votre code est ##OTP##. Il expire dans 5 minutes.',
    description: `Text of the message; every ${OTP_PLACEHOLDER} is replaced by the code. At most 1,600 characters once the code is in.`,
  })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @HasPlaceholder()
  @FitsWithCode()
  message!: string;

  @ApiPropertyOptional({ enum: OTP_TYPES, default: 'numeric', description: 'numeric: digits; alphanumeric: A-Z and digits' })
  @IsOptional()
  @IsIn(OTP_TYPES, { message: Messages.oneOf(OTP_TYPES) })
  otp_type?: OtpType;

  @ApiPropertyOptional({ default: 6, type: 'integer', description: 'Length of the code' })
  @IsOptional()
  @IsInt({ message: Messages.integer })
  @Min(OTP_LENGTHS.min, { message: Messages.between(OTP_LENGTHS.min, OTP_LENGTHS.max) })
  @Max(OTP_LENGTHS.max, { message: Messages.between(OTP_LENGTHS.min, OTP_LENGTHS.max) })
  otp_length?: number;

  @ApiPropertyOptional({ minimum: OTP_EXPIRY_SECONDS.min, maximum: OTP_EXPIRY_SECONDS.max, default: OTP_EXPIRY_SECONDS.default, type: 'integer', description: 'Lifetime of the code, in seconds' })
  @IsOptional()
  @IsInt({ message: Messages.integer })
  @Min(OTP_EXPIRY_SECONDS.min, { message: Messages.between(OTP_EXPIRY_SECONDS.min, OTP_EXPIRY_SECONDS.max) })
  @Max(OTP_EXPIRY_SECONDS.max, { message: Messages.between(OTP_EXPIRY_SECONDS.min, OTP_EXPIRY_SECONDS.max) })
  otp_expiry?: number;

  @ApiPropertyOptional({
    default: false,
    description: "SMS only: send from the account's local number in the destination country when it has one",
  })
  @IsOptional()
  @IsBoolean({ message: Messages.boolean })
  use_local_number?: boolean;

  @ApiPropertyOptional({ example: 'MonApp', description: 'Application name, repeated in the verification and the e-mail subject' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(100, { message: Messages.maxLength(100) })
  application_name?: string;

  @ApiPropertyOptional({ enum: LANGUAGES, default: 'fr', description: 'Language of the e-mail template' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: Messages.oneOf(LANGUAGES) })
  language?: Language;

  @ApiPropertyOptional({
    example: '203.0.113.7',
    description: "The end user's IP address (IPv4 or IPv6), for the fraud guard: its deny list and its velocity per address. Stored on the OTP.",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsClientIp()
  client_ip?: string;

  @ApiPropertyOptional({
    example: 'user-8812',
    maxLength: 128,
    description: 'Your own reference for the end user, for the fraud guard: its safe and deny lists and its velocity per user. Stored on the OTP.',
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsUserRef()
  user_ref?: string;
}
