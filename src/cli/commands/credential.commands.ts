import { Command, CommandRunner, Option } from 'nest-commander';
import { AdminService } from '../../admin/admin.service.js';
import { printJson } from '../json-output.js';

@Command({ name: 'token:issue', description: 'Issue a JWT for a user' })
export class TokenIssueCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { user: string; ttl?: number }): Promise<void> {
    return printJson(() => this.admin.issueToken(options.user, options.ttl));
  }

  @Option({ flags: '--user <id>', description: 'User id', required: true })
  user(value: string) {
    return value;
  }

  @Option({ flags: '--ttl <seconds>', description: 'Lifetime in seconds (default 3600)' })
  ttl(value: string) {
    return Number(value);
  }
}

@Command({ name: 'apikey:create', description: 'Create an API key for a user' })
export class ApiKeyCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { user: string; test?: boolean }): Promise<void> {
    return printJson(() => this.admin.createApiKey(options.user, options.test ?? false));
  }

  @Option({ flags: '--user <id>', description: 'User id', required: true })
  user(value: string) {
    return value;
  }

  @Option({ flags: '--test', description: 'Sandbox key (mk_test_): never debits, never reaches a provider' })
  test() {
    return true;
  }
}

@Command({ name: 'apikey:revoke', description: 'Revoke an API key' })
export class ApiKeyRevokeCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { keyId: string }): Promise<void> {
    return printJson(() => this.admin.revokeApiKey(options.keyId));
  }

  @Option({ flags: '--key-id <id>', description: 'API key id', required: true })
  keyId(value: string) {
    return value;
  }
}
