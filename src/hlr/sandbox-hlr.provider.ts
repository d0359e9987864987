import { SANDBOX_RECIPIENTS } from '../delivery/providers/sandbox.providers.js';
import { HlrLookupFailed, type HlrAnswer, type HlrProvider, type Reachability } from './hlr-provider.js';
import { LocalHlrProvider } from './local-hlr.provider.js';

/** The sandbox recipients' lookups end as their messages do: delivered is reachable, undelivered absent. */
const REACHABILITY: Record<string, Reachability> = { [SANDBOX_RECIPIENTS.delivered]: 'reachable', [SANDBOX_RECIPIENTS.undelivered]: 'absent' };

/**
 * Lookups of sandbox (`mk_test_`) keys: never a vendor. The sandbox
 * recipients take the course their messages take (README, Sandbox); the
 * lookup of the one whose messages fail fails too. Any other number is
 * answered from the numbering plan, as by the `local` provider.
 */
export class SandboxHlrProvider implements HlrProvider {
  readonly name = 'sandbox';
  private readonly plan = new LocalHlrProvider();

  async lookup(number: string): Promise<HlrAnswer> {
    if (number === SANDBOX_RECIPIENTS.failed) throw new HlrLookupFailed('sandbox: numéro de test dont la recherche échoue toujours');
    const answer = await this.plan.lookup(number);
    const reachable = REACHABILITY[number];
    return reachable ? { ...answer, reachable } : answer;
  }
}
