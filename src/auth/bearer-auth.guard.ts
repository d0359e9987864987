import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import { ACCOUNT_CREDENTIAL_REQUIRED, isAdminRoute, OPERATOR_KEY_REQUIRED } from '../common/http/admin-routes.js';
import { isApiKeyShaped, isOperatorKeyShaped } from './api-key.js';
import { bearerToken } from './bearer-token.js';
import { CredentialsService } from './credentials.service.js';
import { isOperator, type OperatorPrincipal, type Principal } from '../common/principal.js';
import { IS_PUBLIC } from './public.decorator.js';

type AuthenticatedRequest = FastifyRequest & { user?: Principal | OperatorPrincipal };

/**
 * The global guard: every route needs a credential unless it is `@Public()`.
 * Routes under `/v1/admin` take operator keys (`mk_op_…`) only, every other
 * route an account's bearer API key (`mk_live_…`, `mk_test_…`) or JWT only: a
 * valid credential of the other kind is 403, an invalid or missing one 401.
 * API and operator keys are looked up here directly, JWTs go through
 * passport-jwt (JwtStrategy) unless the same token passed within the last 5 s
 * (CredentialsService). A database failure is not a failure of the credential
 * and goes on to the exception filter (503).
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
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request);
    if (token !== null && isOperatorKeyShaped(token)) return this.authenticate(request, this.credentials.principalForOperatorKey(token));
    if (token !== null && isApiKeyShaped(token)) return this.authenticate(request, this.credentials.principalForApiKey(token));
    const verified = token === null ? undefined : this.credentials.verifiedToken(token);
    if (verified) return this.authenticate(request, this.credentials.principalForUser(verified.userId, verified.accountId));
    return super.canActivate(context);
  }

  override handleRequest<T = Principal>(error: unknown, principal: T | false, _info?: unknown, context?: ExecutionContext): T {
    if (error) throw error;
    if (!principal) throw ApiError.unauthorized();
    if (context) admit(context.switchToHttp().getRequest<AuthenticatedRequest>(), principal as unknown as Principal);
    return principal;
  }

  private async authenticate(request: AuthenticatedRequest, principal: Promise<Principal | OperatorPrincipal | null>): Promise<boolean> {
    const found = await principal;
    if (!found) throw ApiError.unauthorized();
    admit(request, found);
    request.user = found;
    return true;
  }
}

/** An operator key on an admin route, an account's credential elsewhere; else 403. */
function admit(request: FastifyRequest, principal: Principal | OperatorPrincipal): void {
  const adminRoute = isAdminRoute(request.routeOptions.url ?? '');
  if (adminRoute && !isOperator(principal)) throw ApiError.forbidden(OPERATOR_KEY_REQUIRED);
  if (!adminRoute && isOperator(principal)) throw ApiError.forbidden(ACCOUNT_CREDENTIAL_REQUIRED);
}
