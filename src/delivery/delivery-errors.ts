/** The provider could not take the message now (unreachable, throttled, 4xx SMTP): try again later. */
export class TransientDeliveryError extends Error {
  override readonly name: string = 'TransientDeliveryError';

  constructor(
    message: string,
    /** What the provider already took of the message (parts of a long SMS), handed back on the next attempt. */
    readonly resume: string | null = null,
    /**
     * Whether this uses up one of the message's attempts: a refusal by the provider does; finding no connection
     * able to take it, or losing a connection under a submit, does not (waiting is not failing).
     */
    readonly countsAttempt = true,
    /** Why, in a word (`throttled`, `refused`, `lost`, `timeout`, `unavailable`): what `sms_reroute_total` says of a move. */
    readonly reason = 'refused',
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
    /** The connection that refused it, kept as `provider`; the provider's name when not said. */
    readonly provider: string | null = null,
  ) {
    super(message);
  }
}
