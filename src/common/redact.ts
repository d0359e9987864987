/** Log-safe forms of personal data and secrets. */

/** Keeps the last 4 digits of a phone number, or the first letter and domain of an e-mail address. */
export function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) return `${recipient[0]}***${recipient.slice(at)}`;
  return recipient.length <= 4 ? '****' : `${'*'.repeat(recipient.length - 4)}${recipient.slice(-4)}`;
}

/** Replaces every occurrence of each secret. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((masked, secret) => (secret ? masked.split(secret).join('*'.repeat(6)) : masked), text);
}
