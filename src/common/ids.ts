import { v7 as uuidv7, validate as isUuidString } from 'uuid';
import { isValid as isUlidString, monotonicFactory } from 'ulid';

/** Time-ordered identifiers keep primary-key indexes append-mostly. */
export const newId = (): string => uuidv7();

/** The lot of one send request: a ULID string. */
export const newLot: () => string = monotonicFactory();

export const isUuid = (value: string): boolean => isUuidString(value);

export const isUlid = (value: string): boolean => value.length === 26 && isUlidString(value);
