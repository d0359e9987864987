/** `YYYY-MM-DD HH:MM:SS` in UTC, the format of OTP verification times. */
export const toUtcSeconds = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

/** Unix time in seconds. */
export const toUnixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
