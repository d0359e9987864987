import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const optOutConfig = registerAs('optOut', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Appended to messages sent with `append_opt_out`; `{link}` becomes the recipient's unsubscribe link. */
    text: env.OPT_OUT_TEXT,
    /** The public address unsubscribe links start with (`<base>/u/<token>`). */
    linkBase: env.OPT_OUT_LINK_BASE.replace(/\/+$/, ''),
  };
});

export type OptOutConfig = ConfigType<typeof optOutConfig>;
