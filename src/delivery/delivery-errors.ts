/** The provider could not take the message now (unreachable, throttled, 4xx SMTP): try again later. */
export class TransientDeliveryError extends Error {
  override readonly name = 'TransientDeliveryError';

  constructor(
    message: string,
    /** What the provider already took of the message (parts of a long SMS), handed back on the next attempt. */
    readonly resume: string | null = null,
  ) {
    super(message);
  }
}

/** The provider refused the message for good: it is failed and refunded. */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';

  constructor(
    message: string,
    /** The provider's own word for the refusal, kept as `provider_status`. */
    readonly providerStatus: string | null = null,
  ) {
    super(message);
  }
}
