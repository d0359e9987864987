import { Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { AdminMessageDto } from './dto/admin-message.dto.js';
import { OPERATOR_SMS_NOT_FOUND, SmsService } from './sms.service.js';

/** Any account's outgoing SMS, as the operator reads it. */
@AdminController('messages')
export class SmsAdminController {
  constructor(private readonly sms: SmsService) {}

  @Get(':uniq_id')
  @ApiOperation({
    summary: 'Read one outgoing SMS of any account, with its submits to connectors',
    description:
      'What `GET /v1/sms/out/{id}` shows its account (live or sandbox), and `attempts`: every submit_sm of its parts to a connector and what ' +
      'became of it, in order, across hand-overs; `provider` is the connector that took it.',
  })
  @ApiParam({ name: 'uniq_id', format: 'uuid', description: 'The `uniq_id` of the message', example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10' })
  @RespondWith(200, 'succès', AdminMessageDto)
  @ApiFailure(404, 'Non trouvé', 'No SMS with this uniq_id in any account (also for a malformed id)', { errors: [OPERATOR_SMS_NOT_FOUND] })
  findOne(@Param('uniq_id') uniqId: string): Promise<AdminMessageDto> {
    return this.sms.findForOperator(uniqId);
  }
}
