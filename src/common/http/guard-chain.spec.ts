import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { jest } from '@jest/globals';
import { of } from 'rxjs';
import { GuardChain } from './guard-chain.js';

describe(GuardChain.name, () => {
  const context = {} as ExecutionContext;

  it('runs each guard after the one before has finished, in the order given', async () => {
    const seen: string[] = [];
    const slow: CanActivate = { canActivate: () => new Promise((resolve) => setTimeout(() => resolve(seen.push('first') > 0), 10)) };
    const fast: CanActivate = { canActivate: () => seen.push('second') > 0 };
    await expect(new GuardChain([slow, fast]).canActivate(context)).resolves.toBe(true);
    expect(seen).toEqual(['first', 'second']);
  });

  it('stops at the first guard that refuses', async () => {
    const after = jest.fn(() => true);
    await expect(new GuardChain([{ canActivate: () => Promise.resolve(false) }, { canActivate: after }]).canActivate(context)).resolves.toBe(false);
    expect(after).not.toHaveBeenCalled();
  });

  it('lets a refusal thrown by a guard through, and reads guards that answer with an observable', async () => {
    const refusing: CanActivate = {
      canActivate: () => {
        throw new Error('401');
      },
    };
    await expect(new GuardChain([{ canActivate: () => of(true) }, refusing]).canActivate(context)).rejects.toThrow('401');
  });
});
