import { IANAZone } from 'luxon';

/** An IANA zone name Luxon knows (`Africa/Abidjan`). */
export const isTimeZone = (value: unknown): value is string => typeof value === 'string' && IANAZone.isValidZone(value);
