import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { appConfig, type AppConfig } from '../config/app.config.js';
import { RateLimitCounter } from './rate-limit.counter.js';

const WINDOW_MS = 60_000;

/**
 * `RATE_LIMIT_PER_MINUTE` requests per credential per minute, across every
 * route and every instance (the counters live in the database, see RateLimitCounter). Runs after the
 * bearer guard (GuardChain, app.module.ts); public routes and refused credentials are not counted.
 */
@Injectable()
export class CredentialRateLimitGuard implements CanActivate {
  constructor(
    private readonly counter: RateLimitCounter,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.app.rateLimitPerMinute;
    const principal = context.switchToHttp().getRequest<{ user?: { credentialId: string } }>().user;
    if (limit === 0 || !principal) return true;

    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const quota = await this.counter.take(`credential:${principal.credentialId}`, new Date(windowStart), limit);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));

    const reply = context.switchToHttp().getResponse<FastifyReply>();
    reply.header('x-ratelimit-limit', limit);
    reply.header('x-ratelimit-remaining', quota.remaining);
    reply.header('x-ratelimit-reset', resetSeconds);
    if (!quota.allowed) {
      throw ApiError.tooManyRequests(`requêtes: limite de ${limit} requêtes par minute atteinte, réessayez dans ${resetSeconds} s`, resetSeconds);
    }
    return true;
  }
}
