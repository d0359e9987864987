import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '../account/account.repository.js';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { OptOutWriter } from './opt-out-writer.js';
import { UNSUBSCRIBE_LINKS, type LinkOwner, type UnsubscribeLinks } from './unsubscribe-links.js';

/** What an unsubscribe page shows. */
export interface UnsubscribeLink extends LinkOwner {
  accountName: string;
}

/** The unsubscribe links of messages sent with `append_opt_out`: reading one, and recording the opt-out it asks for (source `link`). */
@Injectable()
export class UnsubscribeService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountRepository,
    private readonly writer: OptOutWriter,
    private readonly clock: Clock,
    @Inject(UNSUBSCRIBE_LINKS) private readonly links: UnsubscribeLinks,
  ) {}

  /** Null for a token that is not ours or names no account. */
  describe(token: string): Promise<UnsubscribeLink | null> {
    return this.database.run((sql) => this.resolve(sql, token));
  }

  /** Puts the link's number on the list of its account and mode (once: opening it again changes nothing). */
  optOut(token: string): Promise<UnsubscribeLink | null> {
    return this.database.transaction(async (sql) => {
      const link = await this.resolve(sql, token);
      if (!link) return null;
      await this.writer.add(sql, [link.phone], { accountId: link.accountId, sandbox: link.sandbox, source: 'link', createdBy: null, at: this.clock.now() });
      return link;
    });
  }

  private async resolve(sql: Sql, token: string): Promise<UnsubscribeLink | null> {
    const owner = this.links.read(token);
    const account = owner && (await this.accounts.findById(sql, owner.accountId));
    return owner && account ? { ...owner, accountName: account.name } : null;
  }
}
