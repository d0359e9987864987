import { Command, CommandRunner, Option } from 'nest-commander';
import { SenderReview } from '../../sender/sender-review.service.js';
import { printJson } from '../json-output.js';

@Command({ name: 'sender:approve', description: 'Approve a requested sender ID (emits sender.approved)' })
export class SenderApproveCommand extends CommandRunner {
  constructor(private readonly review: SenderReview) {
    super();
  }

  run(_: string[], options: { sender: string }): Promise<void> {
    return printJson(() => this.review.approve(options.sender));
  }

  @Option({ flags: '--sender <id>', description: 'Sender id', required: true })
  sender(value: string) {
    return value;
  }
}

@Command({ name: 'sender:reject', description: 'Reject a requested sender ID with a reason (emits sender.rejected)' })
export class SenderRejectCommand extends CommandRunner {
  constructor(private readonly review: SenderReview) {
    super();
  }

  run(_: string[], options: { sender: string; reason: string }): Promise<void> {
    return printJson(() => this.review.reject(options.sender, options.reason));
  }

  @Option({ flags: '--sender <id>', description: 'Sender id', required: true })
  sender(value: string) {
    return value;
  }

  @Option({ flags: '--reason <text>', description: 'Why, as the account will read it (1 to 500 characters)', required: true })
  reason(value: string) {
    return value;
  }
}
