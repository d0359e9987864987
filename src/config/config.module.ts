import { ConfigModule } from '@nestjs/config';
import { CONFIG_NAMESPACES } from './config-namespaces.js';
import { parseEnvironment } from './environment.js';

/** Reads `.env` when present, validates every variable at start-up, exposes typed namespaces. */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  cache: true,
  load: CONFIG_NAMESPACES,
  validate: (raw) => {
    parseEnvironment(raw);
    return raw;
  },
});
