/** The provider could not take the message now (unreachable, throttled, 4xx SMTP): try again later. */
export class TransientDeliveryError extends Error {
  override readonly name = 'TransientDeliveryError';
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
