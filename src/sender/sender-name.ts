/**
 * A sender name is up to 11 letters, digits or spaces with at least one letter
 * (alphanumeric), or up to 15 digits (a number). Letters are the unaccented
 * Latin ones that every SMSC accepts in an alphanumeric source address.
 */
export const SENDER_NAME = /^(?:(?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9 ]{0,9}[A-Za-z0-9])?|\d{1,15})$/;

export const isValidSenderName = (name: string): boolean => SENDER_NAME.test(name);

/** Senders are matched without case. */
export const senderKey = (name: string): string => name.toLowerCase();

/** A default sender name made from an account name: its letters and digits, the first 11. */
export function defaultSenderName(accountName: string): string {
  const letters = accountName.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '').slice(0, 11);
  return /[A-Za-z]/.test(letters) ? letters : 'INFO';
}
