import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';

export const CONTACT_EVENT_TYPES = ['contact.opted_out', 'contact.opted_in'] as const;
const OPT_OUT_SOURCES = ['sms_keyword', 'api', 'import', 'link', 'admin'] as const;

/** `data` of a `contact.opted_out` or `contact.opted_in` event: one number that left or rejoined the account's audience. */
export class ContactEventDataDto {
  /**
   * The number, E.164.
   * @example "+2250707070707"
   */
  phone!: string;
  @ApiProperty({
    enum: OPT_OUT_SOURCES,
    example: 'api',
    description:
      'Where the change came from: `api` (`POST` or `DELETE /v1/opt-out`), `import` (a CSV import), `admin` (the command line), ' +
      '`sms_keyword` (the recipient texted STOP or START) or `link` (the recipient followed an unsubscribe link)',
  })
  source!: (typeof OPT_OUT_SOURCES)[number];
  /**
   * The keyword the recipient texted, for `sms_keyword`.
   * @example null
   */
  keyword!: string | null;
  /**
   * The account's contact with this number, if it has one.
   * @example "0193a3c2-a1b2-7c3d-8e4f-5a6b7c8d9e01"
   */
  @Uuid(true)
  contact_id!: string | null;
  /**
   * The sandbox list changed (a `mk_test_` key, or `--sandbox`): it applies to sandbox traffic only.
   * @example false
   */
  sandbox!: boolean;
  /**
   * When the number was added or removed.
   * @example "2026-11-22T08:00:00.000Z"
   */
  @DateTime()
  at!: string;
}

/** The body POSTed for a `contact.*` event. */
export class ContactWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: CONTACT_EVENT_TYPES, example: 'contact.opted_out' })
  type!: (typeof CONTACT_EVENT_TYPES)[number];
  data!: ContactEventDataDto;
}
