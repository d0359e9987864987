/** What a receipt says of a message: final outcomes only; intermediate states (en route, accepted) have none. */
export type ReceiptOutcome = 'delivered' | 'undelivered';

export interface DeliveryReceipt {
  provider: string;
  providerId: string;
  outcome: ReceiptOutcome | null;
  /** The provider's own word: DELIVRD, UNDELIV, EXPIRED, REJECTD, … */
  providerStatus: string;
}
