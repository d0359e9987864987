import { IANAZone } from 'luxon';

/** An IANA zone name Luxon knows (`Africa/Abidjan`). */
export const isTimeZone = (value: unknown): value is string => typeof value === 'string' && IANAZone.isValidZone(value);

/** The form of every name isTimeZone takes (`Africa/Abidjan`, `UTC`, `Etc/GMT+1`), for the document; which names exist it cannot say. */
export const TIME_ZONE_NAME = /^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/;
