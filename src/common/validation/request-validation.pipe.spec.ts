import type { Type } from '@nestjs/common';
import { LaunchCampaignDto } from '../../campaign/dto/campaign-input.dto.js';
import { SendOtpDto } from '../../otp/dto/send-otp.dto.js';
import { VerifyOtpDto } from '../../otp/dto/verify-otp.dto.js';
import type { Envelope } from '../envelope/envelope.js';
import { ApiError } from '../errors/api-error.js';
import { UnreadableBody } from '../http/body-parsers.js';
import { RequestValidationPipe } from './request-validation.pipe.js';

const PHONE_INVALID = 'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';
const SMS_SENDER_INVALID = 'sender: doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus';
const EMAIL_SENDER_INVALID = 'sender: doit tenir sur une ligne de 100 caractères au plus';
const TOO_LONG = 'message: ne doit pas dépasser 1600 caractères une fois le code inséré';

const sms = (extra: Record<string, unknown> = {}) => ({ channel: 'SMS', to: '+2250707070707', message: 'Code ##OTP##', ...extra });
const email = (extra: Record<string, unknown> = {}) => ({ channel: 'EMAIL', to: 'user@example.com', message: 'Code ##OTP##', ...extra });
const invalid = (...errors: string[]): Envelope => ({ status: 400, message: 'erreur_de_validation', errors });

describe(RequestValidationPipe.name, () => {
  const pipe = new RequestValidationPipe();
  const validate = async (value: unknown, metatype: Type<unknown> = SendOtpDto) => pipe.transform(value, { type: 'body', metatype });

  async function refusal(value: unknown, metatype?: Type<unknown>): Promise<Envelope> {
    const error = await validate(value, metatype).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
    return error.envelope;
  }

  describe('with SendOtpDto', () => {
    it('accepts a minimal SMS body as a SendOtpDto', async () => {
      const dto = await validate(sms());
      expect(dto).toBeInstanceOf(SendOtpDto);
      expect(dto).toEqual(sms());
    });

    it('accepts every optional field within bounds', async () => {
      const body = email({
        sender: 'Support MonApp',
        otp_type: 'alphanumeric',
        otp_length: 4,
        otp_expiry: 3600,
        use_local_number: true,
        application_name: 'MonApp',
        language: 'pt',
      });
      expect(await validate(body)).toEqual(body);
    });

    it('requires channel, to and message', async () => {
      expect(await refusal({})).toEqual(invalid('channel: est obligatoire', 'to: est obligatoire', 'message: est obligatoire'));
    });

    it('treats null as missing for a required field', async () => {
      expect(await refusal(sms({ channel: null }))).toEqual(invalid('channel: est obligatoire'));
    });

    it.each([
      ['otp_length', '6', 'otp_length: doit être un entier'],
      ['otp_length', 4.5, 'otp_length: doit être un entier'],
      ['otp_expiry', '300', 'otp_expiry: doit être un entier'],
      ['use_local_number', 'true', 'use_local_number: doit être un booléen'],
      ['to', 2250707070707, 'to: doit être une chaîne de caractères'],
      ['message', ['##OTP##'], 'message: doit être une chaîne de caractères'],
      ['application_name', 42, 'application_name: doit être une chaîne de caractères'],
    ])('keeps JSON types strict: %s = %j', async (field, value, error) => {
      expect(await refusal(sms({ [field]: value }))).toEqual(invalid(error));
    });

    it.each([
      ['otp_length', 3, 'otp_length: doit être compris entre 4 et 6'],
      ['otp_length', 7, 'otp_length: doit être compris entre 4 et 6'],
      ['otp_expiry', 59, 'otp_expiry: doit être compris entre 60 et 3600'],
      ['otp_expiry', 3601, 'otp_expiry: doit être compris entre 60 et 3600'],
    ])('refuses %s = %j out of range', async (field, value, error) => {
      expect(await refusal(sms({ [field]: value }))).toEqual(invalid(error));
    });

    it.each([
      ['otp_length', 4],
      ['otp_length', 6],
      ['otp_expiry', 60],
      ['otp_expiry', 3600],
    ])('accepts %s = %j at the edge of its range', async (field, value) => {
      expect(await validate(sms({ [field]: value }))).toEqual(sms({ [field]: value }));
    });

    it.each([
      ['channel', 'sms', 'channel: doit valoir SMS ou EMAIL'],
      ['otp_type', 'hex', 'otp_type: doit valoir numeric ou alphanumeric'],
      ['language', 'de', 'language: doit valoir fr, en, es ou pt'],
    ])('refuses %s = %j outside its values', async (field, value, error) => {
      expect(await refusal(sms({ [field]: value }))).toEqual(invalid(error));
    });

    it('requires ##OTP## in the message', async () => {
      expect(await refusal(sms({ message: 'Votre code' }))).toEqual(invalid('message: doit contenir ##OTP##'));
    });

    it('measures the message once the code is inserted', async () => {
      const message = `${'x'.repeat(1595)}##OTP##`;
      expect(await refusal(sms({ message }))).toEqual(invalid(TOO_LONG));
      expect(await validate(sms({ message, otp_length: 4 }))).toEqual(sms({ message, otp_length: 4 }));
    });

    it('counts every placeholder', async () => {
      const message = `${'x'.repeat(1588)}##OTP####OTP##`;
      expect(await validate(sms({ message, otp_length: 6 }))).toEqual(sms({ message, otp_length: 6 }));
      expect(await refusal(sms({ message: `x${message}` }))).toEqual(invalid(TOO_LONG));
    });

    it.each([
      ['an SMS to an e-mail address', sms({ to: 'user@example.com' }), PHONE_INVALID],
      ['an SMS to a national number', sms({ to: '0707070707' }), PHONE_INVALID],
      ['an e-mail to a phone number', email({ to: '+2250707070707' }), 'to: adresse e-mail invalide'],
    ])('refuses %s', async (_case, body, error) => {
      expect(await refusal(body)).toEqual(invalid(error));
    });

    it.each([
      ['12 letters', 'ABCDEFGHIJKL'],
      ['punctuation', 'MON-APP'],
      ['a leading space', ' DEMO'],
    ])('refuses an SMS sender with %s', async (_case, sender) => {
      expect(await refusal(sms({ sender }))).toEqual(invalid(SMS_SENDER_INVALID));
    });

    it('accepts an e-mail display name that is not a valid SMS sender', async () => {
      expect(await validate(email({ sender: 'Équipe Support - MonApp' }))).toEqual(email({ sender: 'Équipe Support - MonApp' }));
    });

    it.each([
      ['a line break', 'Support\r\nBcc: victim@example.com'],
      ['101 characters', 'x'.repeat(101)],
    ])('refuses an e-mail sender with %s', async (_case, sender) => {
      expect(await refusal(email({ sender }))).toEqual(invalid(EMAIL_SENDER_INVALID));
    });

    it.each([
      ['', 'application_name: ne doit pas être vide'],
      ['x'.repeat(101), 'application_name: ne doit pas dépasser 100 caractères'],
    ])('bounds application_name (%j)', async (application_name, error) => {
      expect(await refusal(sms({ application_name }))).toEqual(invalid(error));
    });

    it('gives one error per invalid field', async () => {
      expect(await refusal({ channel: 'FAX', to: 12, message: 'no code', otp_length: 'abc', language: 'de' })).toEqual(
        invalid(
          'channel: doit valoir SMS ou EMAIL',
          'to: doit être une chaîne de caractères',
          'message: doit contenir ##OTP##',
          'otp_length: doit être un entier',
          'language: doit valoir fr, en, es ou pt',
        ),
      );
    });

    it('refuses each unknown field', async () => {
      expect(await refusal(sms({ otp_lenght: 4, code: '123456' }))).toEqual(invalid('otp_lenght: champ inconnu', 'code: champ inconnu'));
    });

    it('refuses null where the field is not nullable, and reports one problem per field', async () => {
      expect(await refusal(sms({ otp_type: null, language: null, otp_length: 1e308 }))).toEqual(
        invalid('otp_length: doit être compris entre 4 et 6', 'otp_type: ne doit pas être null', 'language: ne doit pas être null'),
      );
    });

    it('refuses __proto__ and constructor keys as unknown fields without polluting prototypes', async () => {
      const body: unknown = JSON.parse(
        '{"channel":"SMS","to":"+2250707070707","message":"Code ##OTP##","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      );
      expect(await refusal(body)).toEqual(invalid('__proto__: champ inconnu', 'constructor: champ inconnu'));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('with VerifyOtpDto', () => {
    it('requires to and code', async () => {
      expect(await refusal({}, VerifyOtpDto)).toEqual(invalid('to: est obligatoire', 'code: est obligatoire'));
    });

    it('keeps the code a non-empty string', async () => {
      expect(await refusal({ to: '+2250707070707', code: 482913 }, VerifyOtpDto)).toEqual(
        invalid('code: doit être une chaîne de caractères'),
      );
      expect(await refusal({ to: '+2250707070707', code: '' }, VerifyOtpDto)).toEqual(invalid('code: ne doit pas être vide'));
    });

    it('accepts a string code', async () => {
      expect(await validate({ to: '+2250707070707', code: '482913' }, VerifyOtpDto)).toEqual({ to: '+2250707070707', code: '482913' });
    });

    it('takes no body as an empty one only when no field is required', async () => {
      expect(await refusal(undefined, VerifyOtpDto)).toEqual(invalid('body: doit être un objet JSON'));
      expect(await validate(undefined, LaunchCampaignDto)).toEqual({});
      expect(await refusal({ reason: 'x' }, LaunchCampaignDto)).toEqual(invalid('reason: champ inconnu'));
    });
  });

  it('leaves route parameters and custom arguments as they are', () => {
    const principal = { accountId: 'a' };
    expect(pipe.transform('0193-id', { type: 'param', metatype: String, data: 'id' })).toBe('0193-id');
    expect(pipe.transform(principal, { type: 'custom', metatype: Object })).toBe(principal);
  });

  describe('with a body that is not an object', () => {
    it.each([[[sms()]], ['{"channel":"SMS"}'], [null], [42], [true]])('refuses %j', async (body) => {
      expect(await refusal(body)).toEqual(invalid('body: doit être un objet JSON'));
    });

    it('answers 400 for invalid JSON', async () => {
      expect(await refusal(new UnreadableBody('invalid-json'))).toEqual(invalid('body: JSON invalide'));
    });

    it('answers 415 for another media type', async () => {
      expect(await refusal(new UnreadableBody('unsupported-media-type'))).toEqual({
        status: 415,
        message: 'type_de_contenu_non_supporte',
        errors: ['content-type: application/json attendu'],
      });
    });

    it('answers 400 for a body that is not UTF-8', async () => {
      expect(await refusal(new UnreadableBody('not-utf8'))).toEqual(invalid('body: texte non UTF-8'));
    });
  });
});
