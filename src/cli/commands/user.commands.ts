import { Command, CommandRunner, Option } from 'nest-commander';
import { AdminService } from '../../admin/admin.service.js';
import { printJson } from '../json-output.js';

@Command({ name: 'user:create', description: 'Create a user in an account' })
export class UserCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; name: string; email?: string }): Promise<void> {
    return printJson(() => this.admin.createUser(options.account, options.name, options.email));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'User name', required: true })
  name(value: string) {
    return value;
  }

  @Option({ flags: '--email <email>', description: 'User e-mail' })
  email(value: string) {
    return value;
  }
}

@Command({ name: 'user:delete', description: 'Delete a user: its tokens and API keys stop working' })
export class UserDeleteCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { user: string }): Promise<void> {
    return printJson(() => this.admin.deleteUser(options.user));
  }

  @Option({ flags: '--user <id>', description: 'User id', required: true })
  user(value: string) {
    return value;
  }
}
