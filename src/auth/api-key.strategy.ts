import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { isApiKeyShaped } from './api-key.js';
import { CredentialsService } from './credentials.service.js';
import type { Principal } from './principal.js';

/** `Authorization: Bearer mk_live_…` (or `mk_test_…`). */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly credentials: CredentialsService) {
    super({ header: 'Authorization', prefix: 'Bearer ' }, false);
  }

  async validate(token: string): Promise<Principal | false> {
    if (!isApiKeyShaped(token)) return false;
    return (await this.credentials.principalForApiKey(token)) ?? false;
  }
}
