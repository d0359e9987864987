import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { CommonModule } from '../common/common.module.js';
import { AppConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { AccountAuditCommand, AccountCreateCommand, AccountCreditCommand, AccountWebhookSecretCommand } from './commands/account.commands.js';
import { ApiKeyCreateCommand, ApiKeyRevokeCommand, TokenIssueCommand } from './commands/credential.commands.js';
import {
  ContactCreateCommand,
  GroupCreateCommand,
  LocalNumberAddCommand,
  SenderCreateCommand,
} from './commands/directory.commands.js';
import { OptOutAddCommand, OptOutRemoveCommand } from './commands/opt-out.commands.js';
import { UserCreateCommand, UserDeleteCommand } from './commands/user.commands.js';

@Module({
  // the job runner lets the modules register their queues (the webhook outbox of opt-out events); the command line never claims
  imports: [AppConfigModule, CommonModule, DatabaseModule, JobsModule, AdminModule],
  providers: [
    AccountCreateCommand,
    AccountCreditCommand,
    AccountAuditCommand,
    AccountWebhookSecretCommand,
    UserCreateCommand,
    UserDeleteCommand,
    TokenIssueCommand,
    ApiKeyCreateCommand,
    ApiKeyRevokeCommand,
    SenderCreateCommand,
    LocalNumberAddCommand,
    GroupCreateCommand,
    ContactCreateCommand,
    OptOutAddCommand,
    OptOutRemoveCommand,
  ],
})
export class CliModule {}
