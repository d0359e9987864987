import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-jwt';
import { isUuid } from '../common/ids.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import { bearerToken } from './bearer-token.js';
import { CredentialsService } from './credentials.service.js';
import type { Principal } from '../common/principal.js';

/** Tokens may be issued up to this much ahead of our clock. */
const ISSUED_AT_LEEWAY_SECONDS = 60;

/** `Authorization: Bearer <JWT>`: HS256 only, `exp` required, claims `sub` (user) and `account`. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(secretsConfig.KEY) secrets: SecretsConfig,
    private readonly credentials: CredentialsService,
  ) {
    super({
      jwtFromRequest: bearerToken,
      // a KeyObject (which jsonwebtoken accepts, though passport-jwt's types do not): given a string or a
      // Buffer, jsonwebtoken first tries, and fails, to read it as a public key, on every request
      secretOrKey: createSecretKey(Buffer.from(secrets.jwtSecret)) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  async validate(request: FastifyRequest, claims: Record<string, unknown>): Promise<Principal | false> {
    const { sub, account, exp, iat } = claims;
    if (typeof sub !== 'string' || !isUuid(sub)) return false;
    if (typeof account !== 'string' || !isUuid(account)) return false;
    if (typeof exp !== 'number') return false;
    if (iat !== undefined && (typeof iat !== 'number' || iat > Date.now() / 1000 + ISSUED_AT_LEEWAY_SECONDS)) {
      return false;
    }
    const principal = await this.credentials.principalForUser(sub, account);
    if (!principal) return false;
    this.credentials.rememberVerifiedToken(bearerToken(request)!, { userId: sub, accountId: account }, exp);
    return principal;
  }
}
