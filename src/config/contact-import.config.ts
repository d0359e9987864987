import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const contactImportConfig = registerAs('contactImport', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Largest CSV file accepted by `POST /contact/import` (413 above). */
    maxBytes: env.CONTACT_IMPORT_MAX_BYTES,
    /** Data rows a file may hold; a longer file fails whole. */
    maxRows: env.CONTACT_IMPORT_MAX_ROWS,
    /** A job claimed by an instance that died is taken up again after this long. */
    leaseMs: env.CONTACT_IMPORT_LEASE_SECONDS * 1000,
  };
});

export type ContactImportConfig = ConfigType<typeof contactImportConfig>;
