import type { INestApplicationContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { Authenticate } from '../common/http/method-not-allowed.js';
import { AuthModule } from './auth.module.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';

/** Stands for the route of an answer given before any route is reached: not `@Public()`. */
class NoRoute {
  handle(): void {}
}

/** The global guard's credential check, for answers given outside a route (405). */
export async function requestAuthenticator(app: INestApplicationContext): Promise<Authenticate> {
  const guard = await app.select(AuthModule).get(ModuleRef).create(BearerAuthGuard);
  const handler = NoRoute.prototype.handle;
  return (request, reply) => Promise.resolve(guard.canActivate(new ExecutionContextHost([request, reply], NoRoute, handler)));
}
