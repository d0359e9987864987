import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ApiError } from './api-error.js';
import { toErrorAnswer } from './error-envelope.js';

const INTERNAL = 'erreur_application';
const driverError = (message: string, fields: Record<string, unknown>): Error => Object.assign(new Error(message), fields);
const UNAVAILABLE = { envelope: { status: 503, message: 'service_indisponible' }, unexpected: true };

describe('toErrorAnswer', () => {
  it('passes an ApiError through with its Retry-After', () => {
    expect(toErrorAnswer(ApiError.tooManyAttempts('code: trop de tentatives', 42), INTERNAL)).toEqual({
      envelope: { status: 429, message: 'trop_de_tentatives', errors: ['code: trop de tentatives'] },
      retryAfterSeconds: 42,
      unexpected: false,
    });
  });

  it('passes an ApiError with data through', () => {
    expect(toErrorAnswer(ApiError.insufficientBalance(2.5, 1), INTERNAL)).toEqual({
      envelope: { status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 1 } },
      unexpected: false,
    });
  });

  it.each([
    ['404', new NotFoundException('Cannot GET /nowhere'), { status: 404, message: 'Non trouvé' }],
    ['405', new HttpException('Method Not Allowed', 405), { status: 404, message: 'Non trouvé' }],
    ['413', new PayloadTooLargeException(), { status: 413, message: 'requete_trop_volumineuse' }],
    ['415', new UnsupportedMediaTypeException(), { status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] }],
    ['401', new UnauthorizedException('jwt expired'), { status: 401, message: 'Non autorisé' }],
    ['403', new ForbiddenException('Forbidden resource'), { status: 401, message: 'Non autorisé' }],
  ])('maps a framework %s', (_status, error, envelope) => {
    expect(toErrorAnswer(error, INTERNAL)).toEqual({ envelope, unexpected: false });
  });

  it('maps a framework 400 to a validation error', () => {
    expect(toErrorAnswer(new BadRequestException('Unexpected token'), INTERNAL)).toEqual({
      envelope: { status: 400, message: 'erreur_de_validation', errors: ['requête: invalide'] },
      unexpected: false,
    });
  });

  it('maps a framework 429 to trop_de_requetes with Retry-After', () => {
    expect(toErrorAnswer(new HttpException('Too Many Requests', 429), INTERNAL)).toEqual({
      envelope: { status: 429, message: 'trop_de_requetes', errors: ['requêtes: trop de requêtes'] },
      retryAfterSeconds: 60,
      unexpected: false,
    });
  });

  it('keeps the status of another framework 4xx without its text', () => {
    expect(toErrorAnswer(new ConflictException('duplicate key'), INTERNAL)).toEqual({
      envelope: { status: 409, message: 'requete_invalide' },
      unexpected: false,
    });
  });

  it.each([
    ['ECONNREFUSED', driverError('connect ECONNREFUSED 127.0.0.1:3306', { code: 'ECONNREFUSED', errno: -111 })],
    ['PROTOCOL_CONNECTION_LOST', driverError('Connection lost: The server closed the connection.', { code: 'PROTOCOL_CONNECTION_LOST' })],
    ['fatal: true', driverError('Connection lost', { fatal: true })],
    ['SQLITE_BUSY', driverError('database is locked', { code: 'SQLITE_BUSY' })],
    ['SQLITE_BUSY_TIMEOUT', driverError('database is locked', { code: 'SQLITE_BUSY_TIMEOUT' })],
    ['SQLITE_IOERR_FSYNC', driverError('disk I/O error', { code: 'SQLITE_IOERR_FSYNC' })],
    ['a closed pool', new Error('Pool is closed.')],
  ])('answers 503 for a mysql2-like error (%s)', (_case, error) => {
    expect(toErrorAnswer(error, INTERNAL)).toEqual(UNAVAILABLE);
  });

  it('answers 503 for a QueryFailedError wrapping a connection failure', () => {
    const error = new QueryFailedError('SELECT 1', [], driverError('connect ECONNREFUSED', { code: 'ECONNREFUSED' }));
    expect(toErrorAnswer(error, INTERNAL)).toEqual(UNAVAILABLE);
  });

  it('answers 500 for a QueryFailedError of another kind, without internals', () => {
    const error = new QueryFailedError('INSERT INTO otp …', [], driverError("Duplicate entry 'x' for key 'PRIMARY'", { code: 'ER_DUP_ENTRY' }));
    expect(toErrorAnswer(error, INTERNAL)).toEqual({ envelope: { status: 500, message: INTERNAL }, unexpected: true });
  });

  it('answers 500 with the given message for any other error, without internals', () => {
    expect(toErrorAnswer(new TypeError("Cannot read properties of undefined (reading 'id')"), 'erreur_interne')).toEqual({
      envelope: { status: 500, message: 'erreur_interne' },
      unexpected: true,
    });
  });

  it('answers 500 for a framework 5xx and for a thrown non-error', () => {
    const expected = { envelope: { status: 500, message: INTERNAL }, unexpected: true };
    expect(toErrorAnswer(new HttpException('Bad Gateway', 502), INTERNAL)).toEqual(expected);
    expect(toErrorAnswer('boom', INTERNAL)).toEqual(expected);
    expect(toErrorAnswer({ code: 'ECONNREFUSED' }, INTERNAL)).toEqual(expected);
  });
});
