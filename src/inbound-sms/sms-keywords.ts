/** What a keyword does (SPEC-2 §3). */
export type KeywordAction = 'opt-out' | 'opt-in' | 'help';

/** Twilio's list, AWS's ARRET and French words. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'ARRET', 'ARRETER', 'DESABONNER', 'DESINSCRIRE', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES', 'OUI'] as const;
export const HELP_KEYWORDS = ['HELP', 'AIDE', 'INFO'] as const;
export const SMS_KEYWORDS = [...OPT_OUT_KEYWORDS, ...OPT_IN_KEYWORDS, ...HELP_KEYWORDS] as const;
export type SmsKeyword = (typeof SMS_KEYWORDS)[number];

const ACTIONS = new Map<string, KeywordAction>([
  ...OPT_OUT_KEYWORDS.map((word) => [word, 'opt-out'] as const),
  ...OPT_IN_KEYWORDS.map((word) => [word, 'opt-in'] as const),
  ...HELP_KEYWORDS.map((word) => [word, 'help'] as const),
]);

/**
 * The keyword a message is, when the whole message is one: trimmed, case and
 * accents ignored (`Arrêt ` is ARRET). Anything more (`STOP PLEASE`,
 * `STOP 12345`) is an ordinary message, as Twilio and Braze match.
 */
export function matchKeyword(text: string): { keyword: SmsKeyword; action: KeywordAction } | null {
  const word = text
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase();
  const action = ACTIONS.get(word);
  return action ? { keyword: word as SmsKeyword, action } : null;
}
