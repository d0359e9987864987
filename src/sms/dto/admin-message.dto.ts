import { ApiProperty } from '@nestjs/swagger';
import { DateTime } from '../../common/openapi/formats.js';
import { MessageOutDto } from './message-out.dto.js';

const OUTCOMES = ['accepted', 'throttled', 'refused', 'rejected', 'lost', 'timeout'] as const;

/** One submit_sm of the message to a connector, and what became of it. */
export class MessageAttemptDto {
  /** @example "orange-ci" */
  connector!: string;
  @ApiProperty({
    enum: OUTCOMES,
    example: 'accepted',
    description:
      'accepted; throttled (a busy answer) or refused (another transient error) by the SMSC, which is sent again; rejected for good; ' +
      'lost with its bind, or timeout without an answer, when the SMSC may or may not have taken it',
  })
  outcome!: (typeof OUTCOMES)[number];
  /** @example "2026-11-22T08:00:00.120Z" */
  @DateTime()
  at!: string;
}

/** An outgoing SMS of any account, as the operator reads it: with every submit of it to a connector. */
export class AdminMessageDto extends MessageOutDto {
  @ApiProperty({ type: [MessageAttemptDto], description: 'Every submit_sm of its parts, in order, across hand-overs and connectors' })
  attempts!: MessageAttemptDto[];
}
