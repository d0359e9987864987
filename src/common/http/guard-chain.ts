import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { isObservable, lastValueFrom } from 'rxjs';

/**
 * Guards that run in the order given, each once the one before let the request
 * through: the one global guard, so that a guard that reads another's result
 * (the rate limit reads the principal the bearer guard set) never depends on
 * the order in which modules are imported.
 */
export class GuardChain implements CanActivate {
  constructor(private readonly guards: readonly CanActivate[]) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    for (const guard of this.guards) {
      const allowed = guard.canActivate(context);
      if (!(await (isObservable(allowed) ? lastValueFrom(allowed) : allowed))) return false;
    }
    return true;
  }
}
