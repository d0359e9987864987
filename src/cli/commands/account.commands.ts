import { Command, CommandRunner, Option } from 'nest-commander';
import { AdminService } from '../../admin/admin.service.js';
import { printJson } from '../json-output.js';

interface AccountCreateOptions {
  name: string;
  email?: string;
  phone?: string;
  balance?: string;
  sender?: string;
}

@Command({ name: 'account:create', description: 'Create an account with its owner user, default sender and API key' })
export class AccountCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: AccountCreateOptions): Promise<void> {
    return printJson(() => this.admin.createAccount(options));
  }

  @Option({ flags: '--name <name>', description: 'Account (company) name', required: true })
  name(value: string) {
    return value;
  }

  @Option({ flags: '--email <email>', description: 'Contact e-mail of the account and its owner' })
  email(value: string) {
    return value;
  }

  @Option({ flags: '--phone <phone>', description: 'Contact phone number, international form' })
  phone(value: string) {
    return value;
  }

  @Option({ flags: '--balance <amount>', description: 'Opening balance, at most two decimals (default 0)' })
  balance(value: string) {
    return value;
  }

  @Option({ flags: '--sender <name>', description: "Default sender name (default: the name's first 11 letters and digits)" })
  sender(value: string) {
    return value;
  }
}

@Command({ name: 'account:credit', description: "Add to an account's balance" })
export class AccountCreditCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; amount: string; description?: string }): Promise<void> {
    return printJson(() => this.admin.credit(options.account, options.amount, options.description));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--amount <amount>', description: 'Amount to add, greater than 0, at most two decimals', required: true })
  amount(value: string) {
    return value;
  }

  @Option({ flags: '--description <text>', description: "The ledger row's description, as the account reads it (1 to 255 characters)" })
  description(value: string) {
    return value;
  }
}

@Command({ name: 'account:audit', description: "Compare an account's balance with the sum of its ledger" })
export class AccountAuditCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string }): Promise<void> {
    return printJson(() => this.admin.audit(options.account));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }
}

@Command({ name: 'account:webhook-secret', description: "Rotate an account's webhook signing secret and print the new one once (the previous one still signs for 24 hours)" })
export class AccountWebhookSecretCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string }): Promise<void> {
    return printJson(() => this.admin.rotateWebhookSecret(options.account));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }
}
