import { HttpException } from '@nestjs/common';
import type { Envelope } from '../envelope/envelope.js';

/**
 * A documented failure: its status, its `message` and, where the interface
 * says so, `errors` or `data`. Thrown by services; the exception filter writes it.
 */
export class ApiError extends HttpException {
  constructor(
    readonly envelope: Envelope,
    readonly retryAfterSeconds?: number,
  ) {
    super(envelope, envelope.status);
  }

  /** One line for an operator's terminal: the `message` and the `errors`. */
  describe(): string {
    return [this.envelope.message, ...(this.envelope.errors ?? [])].join(': ');
  }

  static validation(errors: string[]): ApiError {
    return new ApiError({ status: 400, message: 'erreur_de_validation', errors });
  }

  static invalidField(field: string, problem: string): ApiError {
    return ApiError.validation([`${field}: ${problem}`]);
  }

  static unauthorized(): ApiError {
    return new ApiError({ status: 401, message: 'Non autorisé' });
  }

  /** 403: a valid credential of the wrong kind for the route (an account's on `/v1/admin`, an operator key elsewhere). */
  static forbidden(error: string): ApiError {
    return new ApiError({ status: 403, message: 'acces_refuse', errors: [error] });
  }

  static insufficientBalance(costs: number, balance: number): ApiError {
    return new ApiError({ status: 402, message: 'solde_insuffisant', data: { costs, balance } });
  }

  static notFound(message = 'Non trouvé', errors?: string[]): ApiError {
    return new ApiError(errors ? { status: 404, message, errors } : { status: 404, message });
  }

  /** 409: `deja_existant` (a unique key is taken) or `transition_invalide` (the resource's state forbids the action). */
  static conflict(message: 'deja_existant' | 'transition_invalide', errors: string[]): ApiError {
    return new ApiError({ status: 409, message, errors });
  }

  static otpExpired(): ApiError {
    return new ApiError({ status: 410, message: 'code_otp_expir', errors: ['code: le code OTP a expiré'] });
  }

  /** 413; `errors` names the limit when it is not the route's body limit. */
  static payloadTooLarge(errors?: string[]): ApiError {
    return new ApiError(errors ? { status: 413, message: 'requete_trop_volumineuse', errors } : { status: 413, message: 'requete_trop_volumineuse' });
  }

  /** 415, naming the content types the route takes. */
  static unsupportedMediaType(accepted: readonly string[]): ApiError {
    return new ApiError({ status: 415, message: 'type_de_contenu_non_supporte', errors: [`content-type: ${accepted.join(' ou ')} attendu`] });
  }

  /** 405, for a path served with other methods, listed in the `Allow` header. */
  static methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
    return new ApiError({ status: 405, message: 'methode_non_autorisee', errors: [`méthode: ${method} non autorisée (${allowed.join(', ')})`] });
  }

  static tooManyRequests(error: string, retryAfterSeconds: number): ApiError {
    return new ApiError({ status: 429, message: 'trop_de_requetes', errors: [error] }, retryAfterSeconds);
  }

  static tooManyAttempts(error: string, retryAfterSeconds: number): ApiError {
    return new ApiError({ status: 429, message: 'trop_de_tentatives', errors: [error] }, retryAfterSeconds);
  }

  static serviceUnavailable(): ApiError {
    return new ApiError({ status: 503, message: 'service_indisponible' });
  }
}
