import { maskRecipient } from '../redact.js';

const PERSONAL = new Set(['to', 'recipient', 'phone']);

/** Fields that never reach a log as they are: credentials and codes are hidden, recipients masked. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.authorization',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.code',
  '*.password',
  '*.secret',
  'to',
  'recipient',
  'phone',
  '*.to',
  '*.recipient',
  '*.phone',
];

export function censor(value: unknown, path: string[]): string {
  const field = path[path.length - 1] ?? '';
  return PERSONAL.has(field) && typeof value === 'string' ? maskRecipient(value) : '[redacted]';
}
