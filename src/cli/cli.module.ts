import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { CommonModule } from '../common/common.module.js';
import { AppConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { AccountAuditCommand, AccountCreateCommand, AccountCreditCommand, AccountWebhookSecretCommand } from './commands/account.commands.js';
import { ApiKeyCreateCommand, ApiKeyRevokeCommand, TokenIssueCommand } from './commands/credential.commands.js';
import {
  ContactCreateCommand,
  GroupCreateCommand,
  LocalNumberAddCommand,
  SenderCreateCommand,
} from './commands/directory.commands.js';
import { OperatorKeyCreateCommand, OperatorKeyRevokeCommand } from './commands/operator-key.commands.js';
import { OptOutAddCommand, OptOutRemoveCommand } from './commands/opt-out.commands.js';
import { SenderApproveCommand, SenderRejectCommand } from './commands/sender-review.commands.js';
import { UserCreateCommand, UserDeleteCommand } from './commands/user.commands.js';

@Module({
  // the job runner takes the queues of the modules used (the webhook outbox of their events), and never claims here
  imports: [AppConfigModule, CommonModule, DatabaseModule, JobsModule, AdminModule, SenderModule],
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
    OperatorKeyCreateCommand,
    OperatorKeyRevokeCommand,
    SenderCreateCommand,
    SenderApproveCommand,
    SenderRejectCommand,
    LocalNumberAddCommand,
    GroupCreateCommand,
    ContactCreateCommand,
    OptOutAddCommand,
    OptOutRemoveCommand,
  ],
})
export class CliModule {}
