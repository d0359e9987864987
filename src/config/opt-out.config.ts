import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';
import { publicUrl } from './public-url.js';

export const optOutConfig = registerAs('optOut', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Appended to messages sent with `append_opt_out`; `{link}` becomes the recipient's unsubscribe link. */
    text: env.OPT_OUT_TEXT,
    /** The service's public address, which unsubscribe links start with (`<base>/u/<token>`). */
    linkBase: publicUrl(env),
    /** OTPs are refused to numbers on the list too; by default they are exempt (the recipient asked for the code). */
    blocksOtp: env.OPT_OUT_BLOCKS_OTP === 'true',
    /** STOP, START and HELP are answered by an SMS from the number written to, never debited (KeywordReplies). */
    confirmation: env.OPT_OUT_CONFIRMATION === 'true',
  };
});

export type OptOutConfig = ConfigType<typeof optOutConfig>;
