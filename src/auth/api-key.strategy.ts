import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { isApiKeyShaped } from './api-key.js';
import { bearerToken } from './bearer-token.js';
import { CredentialsService } from './credentials.service.js';
import type { Principal } from './principal.js';

/** `Authorization: Bearer mk_live_…` (or `mk_test_…`); the scheme name is case-insensitive. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(request: FastifyRequest): Promise<Principal | false> {
    const token = bearerToken(request);
    if (!token || !isApiKeyShaped(token)) return false;
    return (await this.credentials.principalForApiKey(token)) ?? false;
  }
}
