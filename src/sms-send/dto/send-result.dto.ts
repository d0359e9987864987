import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { REJECTION_REASONS, type RejectionReason } from '../../sending/rejection.js';


export class AcceptedMessageDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  uniq_id!: string;
  /** @example "+2250707070707" */
  to!: string;
  @ApiProperty({ enum: ['pending', 'scheduled'], example: 'pending' })
  status!: 'pending' | 'scheduled';
  /** Segments @example 1 */
  @Integer()
  page!: number;
  /** @example 2.5 */
  amount!: number;
  /** When it is handed over: now, `send_at`, or the delivery window's next opening @example "2026-03-01T08:00:00.000Z" */
  @DateTime()
  send_at!: string;
}

export class RejectedRecipientDto {
  /** The number as given, or the contact's @example "+22507" */
  to!: string;
  @ApiProperty({ enum: REJECTION_REASONS, example: 'numero_invalide' })
  reason!: RejectionReason;
}

/** What `POST /sms/send` accepted and refused. */
export class SendResultDto {
  /** @example "01JN8Y6ZQ4W3T2M5R7K9X1C0VB" */
  lot!: string;
  /** Messages accepted @example 2 */
  @Integer()
  count!: number;
  /** Debited (0 with a sandbox key) @example 5 */
  amount!: number;
  /** Balance after the debit @example 995 */
  balance!: number;
  /** Whether the messages wait for a later time @example false */
  scheduled!: boolean;
  @ApiProperty({ type: [AcceptedMessageDto], description: 'Left out beyond 1,000 messages: read them with `GET /sms/out?lot=`' })
  messages?: AcceptedMessageDto[];
  @ApiProperty({ type: [RejectedRecipientDto], description: 'Recipients refused one by one (the first 1,000); none is stored or charged' })
  rejected!: RejectedRecipientDto[];
}

/** What `POST /sms/out/{id}/cancel` did. */
export class CancelResultDto {
  /** Messages cancelled @example 120 */
  @Integer()
  cancelled!: number;
  /** Refunded to the balance @example 300 */
  refunded!: number;
  /** @example 1300 */
  balance!: number;
}
