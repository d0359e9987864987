import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError } from '../common/errors/api-error.js';
import type { Principal } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * The global guard: every route needs a bearer API key or JWT unless it is
 * `@Public()`. Any failure is the same 401; a database failure is not a failure
 * of the credential and goes on to the exception filter (503).
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard(['api-key', 'jwt']) {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  override handleRequest<T = Principal>(error: unknown, principal: T | false): T {
    if (error) throw error;
    if (!principal) throw ApiError.unauthorized();
    return principal;
  }
}
