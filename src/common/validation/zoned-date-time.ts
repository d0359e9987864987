import { rule } from './rule.js';

/** ISO 8601 with a `Z` or an offset: a time without one would be read in whatever zone the server runs in. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export const ZONED_DATE_TIME_EXPECTED = 'date ISO 8601 avec fuseau attendue';

export const isZonedDateTime = (value: unknown): value is string =>
  typeof value === 'string' && ZONED_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));

export const IsZonedDateTime = rule('isZonedDateTime', isZonedDateTime, () => ZONED_DATE_TIME_EXPECTED);
