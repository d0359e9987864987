import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '../common/principal.js';

/** The authenticated caller, as the global guard left it on the request. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<{ user: Principal }>().user,
);
