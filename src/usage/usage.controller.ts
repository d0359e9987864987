import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { UsageDto } from './dto/usage.dto.js';
import { UsageQueryDto } from './dto/usage-query.dto.js';
import { UsageService } from './usage.service.js';

/** Its own path, outside the global prefix: the Prometheus scrape endpoint is `/metrics` (see app.setup.ts). */
@ApiTags('Métrique')
@Controller('v1/metrics')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    summary: 'Messages, segments, cost and rates by local day, week or month',
    description:
      'Counted by acceptance time over at most 366 days, in buckets of the given IANA time zone (DST and half-hour zones exact). ' +
      '`delivery_rate` = delivered ÷ (sent + delivered + undelivered); `failure_rate` = failed ÷ (sent + delivered + undelivered + failed). ' +
      '`otp` gives the OTPs accepted in the range, those verified, their conversion rate (verified ÷ sent) and the sends the fraud guard refused, ' +
      'filtered by `country` only. A sandbox key counts sandbox messages only.',
  })
  @RespondWith(200, 'succès', UsageDto)
  @ApiFailure(400, 'erreur_de_validation', 'A missing or bad parameter, or a range over 366 days', {
    errors: ['created_from: intervalle de 366 jours maximum'],
  })
  report(@CurrentPrincipal() principal: Principal, @Query() query: UsageQueryDto): Promise<UsageDto> {
    return this.usage.report(principal, query);
  }
}
