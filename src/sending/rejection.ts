/** Why a recipient of a send is left out, one by one, without failing the send (SPEC-2 §1.1). */
export const REJECTION_REASONS = ['numero_invalide', 'destination_non_prise_en_charge', 'desinscrit', 'doublon', 'doublon_recent'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface Rejection {
  to: string;
  reason: RejectionReason;
}
