import { QueryFailedError } from 'typeorm';

/** Whether a statement failed on a unique key, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error instanceof QueryFailedError ? error.driverError : error) as { code?: unknown; errno?: unknown } | undefined;
  return driverError?.errno === 1062 || driverError?.code === 'SQLITE_CONSTRAINT_UNIQUE' || driverError?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
