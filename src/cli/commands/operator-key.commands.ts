import { Command, CommandRunner, Option } from 'nest-commander';
import { OperatorKeyService } from '../../admin/operator-key.service.js';
import { printJson } from '../json-output.js';

@Command({ name: 'operator-key:create', description: 'Create an operator key for /v1/admin (printed once; it belongs to no account)' })
export class OperatorKeyCreateCommand extends CommandRunner {
  constructor(private readonly keys: OperatorKeyService) {
    super();
  }

  run(_: string[], options: { name: string }): Promise<void> {
    return printJson(() => this.keys.create(options.name));
  }

  @Option({ flags: '--name <name>', description: 'Who or what holds the key (1 to 100 characters)', required: true })
  name(value: string) {
    return value;
  }
}

@Command({ name: 'operator-key:revoke', description: 'Revoke an operator key (it stops working within 5 seconds)' })
export class OperatorKeyRevokeCommand extends CommandRunner {
  constructor(private readonly keys: OperatorKeyService) {
    super();
  }

  run(_: string[], options: { keyId: string }): Promise<void> {
    return printJson(() => this.keys.revoke(options.keyId));
  }

  @Option({ flags: '--key-id <id>', description: 'Operator key id', required: true })
  keyId(value: string) {
    return value;
  }
}
