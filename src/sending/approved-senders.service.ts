import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { Sql } from '../database/sql.js';
import { SenderDirectory } from '../sender/sender-directory.js';
import { SenderRepository } from '../sender/sender.repository.js';

export interface ApprovedSender {
  id: string;
  name: string;
}

/** The sender a send goes out under: one of the account's, approved by the operator (SPEC-2 §1.3), else 400 on `sender`. */
@Injectable()
export class ApprovedSenders {
  constructor(
    private readonly directory: SenderDirectory,
    private readonly senders: SenderRepository,
  ) {}

  /** The named sender (matched without case), or the account's default when no name is given. */
  async named(sql: Sql, accountId: string, name: string | undefined): Promise<ApprovedSender> {
    return approved(await this.directory.resolve(sql, accountId, name));
  }

  /** The sender a record names by id (a campaign's draft), which must still be approved. */
  async byId(sql: Sql, accountId: string, id: string): Promise<ApprovedSender> {
    return approved(await this.senders.find(sql, accountId, id));
  }
}

function approved(sender: { id: string; name: string; status: string } | null): ApprovedSender {
  if (!sender) throw ApiError.invalidField('sender', 'expéditeur inconnu');
  if (sender.status !== 'approved') throw ApiError.invalidField('sender', 'expéditeur non approuvé');
  return sender;
}
