import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { MessageStatusCountsDto } from '../../sms/dto/message-status-counts.dto.js';
import { DeliveryWindowDto } from '../../sending/dto/delivery-window.dto.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../campaign-status.js';

/**
 * Members of `group_ids` left out at launch, by reason, each time a member is
 * met: `recipients` plus these add up to the members of the groups (a number in
 * two groups counts twice: once as a recipient or an exclusion, then as `doublon`).
 */
export class CampaignExclusionsDto {
  /** On the opt-out list of the campaign's mode */
  @Integer()
  desinscrit!: number;
  @Integer()
  numero_invalide!: number;
  /** Met again in another group (or twice in one), after its first occurrence */
  @Integer()
  doublon!: number;
  /** No price for its country */
  @Integer()
  destination_non_prise_en_charge!: number;
  /** A member of one of `exclude_group_ids` */
  @Integer()
  exclu_par_groupe!: number;
}

/**
 * The recipients by the status of their message. A recipient not yet turned
 * into a message counts as `scheduled`, or `cancelled` once the campaign is;
 * the statuses therefore add up to `recipients`.
 */
export class CampaignCountsDto extends MessageStatusCountsDto {
  /** Recipients frozen at launch; 0 before. */
  @Integer()
  recipients!: number;
  excluded!: CampaignExclusionsDto;
}

export class CampaignDto {
  /** @example "0193a3c2-d1e2-7f30-8a4b-5c6d7e8f9a01" */
  @Uuid()
  id!: string;
  @Uuid()
  company_id!: string;
  /** @example "Soldes de mars" */
  name!: string;
  /** @example "Bonjour ##NAME##, -20 % sur tout le magasin ce week-end." */
  message!: string;
  /** The sender named, or once launched the one used; null: the account's default. */
  @Uuid(true)
  sender_id!: string | null;
  @ApiProperty({ type: [String], format: 'uuid' })
  group_ids!: string[];
  @ApiProperty({ type: [String], format: 'uuid' })
  exclude_group_ids!: string[];
  /** When the messages are due; null before launch for "at launch". */
  @DateTime(true)
  send_at!: string | null;
  @ApiProperty({ type: DeliveryWindowDto, nullable: true })
  delivery_window!: DeliveryWindowDto | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  webhook_url!: string | null;
  append_opt_out!: boolean;
  @ApiProperty({ enum: CAMPAIGN_STATUSES, example: 'draft' })
  status!: CampaignStatus;
  /** The lot of its messages (`GET /sms/lot/{lot}`), from launch on. */
  @ApiProperty({ type: String, nullable: true, example: null })
  lot!: string | null;
  counts!: CampaignCountsDto;
  /** Debited at launch. @example 0 */
  amount!: number;
  /** Given back by a cancel. @example 0 */
  refunded!: number;
  /** Made with a sandbox (`mk_test_`) key. */
  sandbox!: boolean;
  @Uuid()
  created_by!: string;
  @DateTime()
  created_at!: string;
  @DateTime()
  updated_at!: string;
  @DateTime(true)
  launched_at!: string | null;
  @DateTime(true)
  started_at!: string | null;
  @DateTime(true)
  completed_at!: string | null;
  @DateTime(true)
  cancelled_at!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  cancel_reason!: string | null;
}
