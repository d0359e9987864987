import { Command, CommandRunner, Option } from 'nest-commander';
import { AdminService } from '../../admin/admin.service.js';
import { printJson } from '../json-output.js';

interface OptOutOptions {
  account: string;
  phone: string;
  sandbox?: boolean;
}

/** The options both opt-out commands take. */
abstract class OptOutCommand extends CommandRunner {
  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--phone <phone>', description: 'The number, international form', required: true })
  phone(value: string) {
    return value;
  }

  @Option({ flags: '--sandbox', description: "The account's sandbox list (what its mk_test_ keys see) instead of the live one" })
  sandbox() {
    return true;
  }
}

@Command({ name: 'optout:add', description: "Put a number on an account's opt-out list (source admin)" })
export class OptOutAddCommand extends OptOutCommand {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: OptOutOptions): Promise<void> {
    return printJson(() => this.admin.addOptOut(options.account, options.phone, options.sandbox));
  }
}

@Command({
  name: 'optout:remove',
  description: "Take a number off an account's opt-out list; refused for a number that opted out itself (STOP, link)",
})
export class OptOutRemoveCommand extends OptOutCommand {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: OptOutOptions): Promise<void> {
    return printJson(() => this.admin.removeOptOut(options.account, options.phone, options.sandbox));
  }
}
