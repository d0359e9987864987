import { HttpException } from '@nestjs/common';
import type { Envelope } from '../envelope/envelope.js';
import { JSON_TYPE } from '../http/body-parsers.js';
import { ApiError } from './api-error.js';
import { isDatabaseUnavailable } from './database-unavailable.js';

export interface ErrorAnswer {
  envelope: Envelope;
  retryAfterSeconds?: number;
  /** True when the failure is ours and deserves a log line with its stack. */
  unexpected: boolean;
}

const BAD_REQUEST = 'requête: invalide';

const FRAMEWORK_ANSWERS: Record<number, Envelope> = {
  401: { status: 401, message: 'Non autorisé' },
  403: { status: 401, message: 'Non autorisé' },
  404: { status: 404, message: 'Non trouvé' },
  405: { status: 404, message: 'Non trouvé' },
  413: { status: 413, message: 'requete_trop_volumineuse' },
};

/**
 * Maps anything thrown while serving a request to the documented envelope; a
 * 415 of the framework (a Content-Type it cannot read) names `acceptedTypes`.
 */
export function toErrorAnswer(error: unknown, internalErrorMessage: string, acceptedTypes: readonly string[] = [JSON_TYPE]): ErrorAnswer {
  if (error instanceof ApiError) {
    return { envelope: error.envelope, retryAfterSeconds: error.retryAfterSeconds, unexpected: false };
  }
  if (isDatabaseUnavailable(error)) {
    return { envelope: ApiError.serviceUnavailable().envelope, unexpected: true };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 415) return { envelope: ApiError.unsupportedMediaType(acceptedTypes).envelope, unexpected: false };
    const known = FRAMEWORK_ANSWERS[status];
    if (known) return { envelope: known, unexpected: false };
    if (status === 400) return { envelope: ApiError.validation([BAD_REQUEST]).envelope, unexpected: false };
    if (status === 429) {
      return { envelope: ApiError.tooManyRequests('requêtes: trop de requêtes', 60).envelope, retryAfterSeconds: 60, unexpected: false };
    }
    if (status < 500) return { envelope: { status, message: 'requete_invalide' }, unexpected: false };
  }
  return { envelope: { status: 500, message: internalErrorMessage }, unexpected: true };
}
