import type { ChargedFor, LedgerKind } from '../billing/ledger.repository.js';

const CHARGES: Record<ChargedFor, string> = {
  otp: "Envoi d'un code OTP",
  sms: 'Envoi de SMS',
  campaign: "Lancement d'une campagne",
  hlr: 'Recherche HLR',
  admin: "Débit par l'opérateur",
};

const REFUNDS: Record<ChargedFor, string> = {
  otp: "Remboursement d'un code OTP non transmis",
  sms: 'Remboursement de SMS non transmis ou annulés',
  campaign: "Remboursement d'une campagne",
  hlr: "Remboursement d'une recherche HLR échouée",
  admin: "Remboursement par l'opérateur",
};

/** The French description of a ledger row, from what it is and what it is for. */
export function describeEntry(kind: LedgerKind, chargedFor: ChargedFor): string {
  switch (kind) {
    case 'opening':
      return "Solde d'ouverture";
    case 'credit':
      return 'Crédit du compte';
    case 'adjustment':
      return 'Ajustement';
    case 'debit':
      return CHARGES[chargedFor];
    case 'refund':
      return REFUNDS[chargedFor];
  }
}
