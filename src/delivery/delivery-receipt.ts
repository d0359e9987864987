/** What a receipt says of a message: final outcomes only; intermediate states (en route, accepted) have none. */
export type ReceiptOutcome = 'delivered' | 'undelivered';

/** What a receipt says, by the provider id of the part it is about. */
export interface ReceiptReport {
  providerId: string;
  outcome: ReceiptOutcome | null;
  /** The provider's own word: DELIVRD, UNDELIV, EXPIRED, REJECTD, … */
  providerStatus: string;
}

export interface DeliveryReceipt extends ReceiptReport {
  provider: string;
}
