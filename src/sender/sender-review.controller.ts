import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';
import { RejectSenderDto, SenderQueryDto } from './dto/sender-input.dto.js';
import { SenderDto } from './dto/sender.dto.js';
import { SenderReview } from './sender-review.service.js';
import { SENDER_NOT_FOUND } from './sender.service.js';

const SenderIdParam = () => ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the sender', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03' });
const SenderNotFound = () => ApiFailure(404, SENDER_NOT_FOUND, 'No such sender in any account (also for a malformed id)');

/** The operator's review of requested sender IDs, with the effects and events of `sender:approve` and `sender:reject`. */
@AdminController('senders')
export class SenderReviewController {
  constructor(private readonly review: SenderReview) {}

  @Get()
  @ApiOperation({ summary: "List every account's senders, newest first", description: 'Those waiting for review: `status=pending`.' })
  @RespondWithList(SenderDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['status: doit valoir pending, approved ou rejected'] })
  list(@Query() query: SenderQueryDto): Promise<ListPage<SenderDto>> {
    return this.review.list(query);
  }

  @Post(':id/approve')
  @ApiOperation({
    summary: 'Approve a pending or rejected sender',
    description: 'The account may send with it from now on; a `sender.approved` event is sent to its webhook.',
  })
  @SenderIdParam()
  @TakesNoBody()
  @RespondWith(200, 'succès', SenderDto)
  @SenderNotFound()
  @ApiFailure(
    409,
    'transition_invalide',
    'The sender is approved already (`transition_invalide`), or another sender of the account is pending or approved under its name (`deja_existant`)',
    { errors: ['status: expéditeur déjà approuvé'] },
  )
  approve(@Param('id') id: string): Promise<SenderDto> {
    return this.review.approve(id);
  }

  @Post(':id/reject')
  @ApiOperation({
    summary: 'Reject a pending sender, with the reason the account will read',
    description: 'A `sender.rejected` event is sent to the account\'s webhook; the account may ask for the name again.',
  })
  @SenderIdParam()
  @RespondWith(200, 'succès', SenderDto)
  @ApiFailure(400, 'erreur_de_validation', 'A missing or bad reason', { errors: ['reason: doit faire de 1 à 500 caractères'] })
  @SenderNotFound()
  @ApiFailure(409, 'transition_invalide', 'The sender is approved or rejected already', { errors: ['status: expéditeur déjà refusé'] })
  reject(@Param('id') id: string, @Body() body: RejectSenderDto): Promise<SenderDto> {
    return this.review.reject(id, body.reason);
  }
}
