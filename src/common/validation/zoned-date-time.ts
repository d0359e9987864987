import { rule } from './rule.js';

/**
 * An RFC 3339 date-time (ISO 8601 with seconds and a `Z` or an offset: a time
 * without one would be read in whatever zone the server runs in), with any
 * number of fractional digits, kept to the millisecond.
 */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const ZONED_DATE_TIME_EXPECTED = 'date ISO 8601 avec fuseau attendue';

export const isZonedDateTime = (value: unknown): value is string =>
  typeof value === 'string' && ZONED_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));

export const IsZonedDateTime = rule('isZonedDateTime', isZonedDateTime, () => ZONED_DATE_TIME_EXPECTED, {
  format: 'date-time',
  pattern: ZONED_DATE_TIME.source,
});
