import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import { isApiKeyShaped } from './api-key.js';
import { bearerToken } from './bearer-token.js';
import { CredentialsService } from './credentials.service.js';
import type { Principal } from '../common/principal.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * The global guard: every route needs a bearer API key (`mk_live_…`,
 * `mk_test_…`) or JWT unless it is `@Public()`. API keys are looked up here
 * directly, JWTs go through passport-jwt (JwtStrategy) unless the same token
 * passed within the last 5 s (CredentialsService). Any failure is the
 * same 401; a database failure is not a failure of the credential and goes on
 * to the exception filter (503).
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const token = bearerToken(request);
    if (token !== null && isApiKeyShaped(token)) return this.authenticate(request, this.credentials.principalForApiKey(token));
    const verified = token === null ? undefined : this.credentials.verifiedToken(token);
    if (verified) return this.authenticate(request, this.credentials.principalForUser(verified.userId, verified.accountId));
    return super.canActivate(context);
  }

  override handleRequest<T = Principal>(error: unknown, principal: T | false): T {
    if (error) throw error;
    if (!principal) throw ApiError.unauthorized();
    return principal;
  }

  private async authenticate(request: { user?: Principal }, principal: Promise<Principal | null>): Promise<boolean> {
    request.user = this.handleRequest(null, (await principal) ?? false);
    return true;
  }
}
