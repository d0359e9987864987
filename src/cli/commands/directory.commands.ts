import { Command, CommandRunner, Option } from 'nest-commander';
import { AdminService } from '../../admin/admin.service.js';
import { printJson } from '../json-output.js';

@Command({ name: 'sender:create', description: 'Register a sender name for an account' })
export class SenderCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; name: string }): Promise<void> {
    return printJson(() => this.admin.createSender(options.account, options.name));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'Up to 11 letters, digits or spaces with a letter, or up to 15 digits', required: true })
  name(value: string) {
    return value;
  }
}

@Command({ name: 'local-number:add', description: "Add an account's local number in one country (used by use_local_number)" })
export class LocalNumberAddCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; number: string }): Promise<void> {
    return printJson(() => this.admin.addLocalNumber(options.account, options.number));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--number <phone>', description: 'The number, international form', required: true })
  number(value: string) {
    return value;
  }
}

@Command({ name: 'group:create', description: 'Create a group of contacts' })
export class GroupCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; name: string; description?: string }): Promise<void> {
    return printJson(() => this.admin.createGroup(options.account, options.name, options.description));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'Group name', required: true })
  name(value: string) {
    return value;
  }

  @Option({ flags: '--description <text>', description: 'Group description' })
  description(value: string) {
    return value;
  }
}

@Command({ name: 'contact:create', description: 'Create a contact, optionally in a group' })
export class ContactCreateCommand extends CommandRunner {
  constructor(private readonly admin: AdminService) {
    super();
  }

  run(_: string[], options: { account: string; name?: string; phone?: string; email?: string; group?: string }): Promise<void> {
    const { account, ...contact } = options;
    return printJson(() => this.admin.createContact(account, contact));
  }

  @Option({ flags: '--account <id>', description: 'Account id', required: true })
  account(value: string) {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'Contact name' })
  name(value: string) {
    return value;
  }

  @Option({ flags: '--phone <phone>', description: 'Phone number, international form' })
  phone(value: string) {
    return value;
  }

  @Option({ flags: '--email <email>', description: 'E-mail address' })
  email(value: string) {
    return value;
  }

  @Option({ flags: '--group <id>', description: 'Add the contact to this group' })
  group(value: string) {
    return value;
  }
}
