/** A message's text, personalised or with its code, is at most this long (SPEC-2 §1.1). */
export const MAX_MESSAGE_LENGTH = 1600;
export const MESSAGE_TOO_LONG = `doit contenir au plus ${MAX_MESSAGE_LENGTH} caractères`;

/** Minutes the operator keeps trying to deliver a bulk message, unless the send says otherwise (SMPP validity period). */
export const DEFAULT_VALIDITY_MINUTES = 2880;
