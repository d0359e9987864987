import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';

export class CompanyRefDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  id!: string;
  /** @example "Demo" */
  name!: string;
  /** @example "contact@demo.example" */
  email!: string | null;
  /** @example "+2250700000000" */
  phone!: string | null;
}

export class MessagePriceRefDto {
  /** @example "0191f3a0-0000-7000-8000-000000000225" */
  @Uuid()
  id!: string;
  /** @example "SMS Côte d'Ivoire" */
  description!: string;
  /**
   * Price of one segment.
   * @example 2.5
   */
  amount!: number;
}

export class SenderRefDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03" */
  @Uuid()
  id!: string;
  /** @example "DEMO" */
  name!: string;
  /** @example null */
  email!: string | null;
  /** @example null */
  phone!: string | null;
}

export class ContactRefDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e04" */
  @Uuid()
  id!: string;
  /** @example "Awa Koné" */
  name!: string | null;
  /** @example null */
  email!: string | null;
  /** @example "+2250707070707" */
  phone!: string | null;
}

export class AuthorRefDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid()
  id!: string;
  /** @example "Demo owner" */
  name!: string;
  /** @example null */
  email!: string | null;
}

export const MESSAGE_STATUSES = ['scheduled', 'pending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_TYPES = ['otp', 'sms'] as const;
/** `reply`: the confirmation of a STOP, START or HELP keyword (OPT_OUT_CONFIRMATION). */
export const MESSAGE_SOURCES = ['api', 'campaign', 'reply'] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

/** One outgoing SMS. */
export class MessageOutDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  company_id!: string;
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  uniq_id!: string;
  /** @example null */
  external_id!: string | null;
  /** @example "0191f3a0-0000-7000-8000-000000000225" */
  @Uuid(true)
  message_price_id!: string | null;
  @ApiProperty({ enum: MESSAGE_TYPES, example: 'otp' })
  type!: string;
  /**
   * ULID of the send request.
   * @example "01JDGZ3W5K8Q2N7V4T6R9M0B1C"
   */
  lot!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03" */
  @Uuid(true)
  sender_id!: string | null;
  /**
   * The contact the send named, else the account's contact with the number.
   * @example null
   */
  @Uuid(true)
  contact_id!: string | null;
  /**
   * The recipient, E.164.
   * @example "+2250707070707"
   */
  to!: string;
  /** @example null */
  @Uuid(true)
  campaign_id!: string | null;
  /**
   * The text sent, with an OTP code masked.
   * @example "Votre code est ******"
   */
  message!: string;
  /**
   * Number of SMS segments.
   * @example "1"
   */
  page!: string;
  @ApiProperty({ enum: ['GSM7', 'UCS2'], example: 'GSM7' })
  message_encoding!: string;
  /**
   * Cost of the message.
   * @example 2.5
   */
  amount!: number;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  send_at!: string;
  /** @example null */
  @DateTime(true)
  done_at!: string | null;
  /** @example null */
  mccmnc!: string | null;
  /** @example 0 */
  @Integer()
  dlr_number_retry!: number;
  /** @example "log" */
  provider!: string | null;
  /** @example "log-0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  provider_id!: string | null;
  /** @example "DELIVRD" */
  provider_status!: string | null;
  @ApiProperty({ enum: MESSAGE_SOURCES, example: 'api' })
  source!: string;
  @ApiProperty({
    enum: MESSAGE_STATUSES,
    example: 'sent',
    description:
      'scheduled → pending or cancelled; pending → sent or failed; sent → delivered or undelivered. ' +
      'delivered, undelivered, failed and cancelled are final: a late receipt only updates `provider_status`.',
  })
  status!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid()
  created_by!: string;
  /** @example null */
  webhook_url!: string | null;
  /** @example null */
  webhook_response!: string | null;
  /** @example false */
  retrieve!: boolean;
  /** @example null */
  local_number!: string | null;
  /** @example "fr" */
  language!: string | null;
  /**
   * Sent with a sandbox (`mk_test_`) key: never billed, never handed to a provider.
   * @example false
   */
  sandbox!: boolean;
  company!: CompanyRefDto;
  message_price!: MessagePriceRefDto | null;
  sender!: SenderRefDto | null;
  contact!: ContactRefDto | null;
  author!: AuthorRefDto | null;
}
