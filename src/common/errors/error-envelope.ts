import { HttpException } from '@nestjs/common';
import type { Envelope } from '../envelope/envelope.js';
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
  415: { status: 415, message: 'type_de_contenu_non_supporte' },
};

/** Maps anything thrown while serving a request to the documented envelope. */
export function toErrorAnswer(error: unknown, internalErrorMessage: string): ErrorAnswer {
  if (error instanceof ApiError) {
    return { envelope: error.envelope, retryAfterSeconds: error.retryAfterSeconds, unexpected: false };
  }
  if (isDatabaseUnavailable(error)) {
    return { envelope: ApiError.serviceUnavailable().envelope, unexpected: true };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
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
