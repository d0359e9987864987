import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { RouteResolveQueryDto } from './dto/route-resolve-query.dto.js';
import { RouteDto, RouteResolutionDto } from './dto/route.dto.js';
import { RoutingAdmin } from './routing-admin.service.js';

/** The SMS routes of the routing table in force, and the route a number would take. */
@AdminController('routes')
export class RouteAdminController {
  constructor(private readonly routing: RoutingAdmin) {}

  @Get()
  @ApiOperation({
    summary: 'List the SMS routes in force, first match first',
    description: "Each target with its health on the instance that answers; on one page. A target's `cost` is the operator's, never shown to accounts.",
  })
  @RespondWithList(RouteDto)
  list(): ListPage<RouteDto> {
    return this.routing.listRoutes();
  }

  @Get('resolve')
  @ApiOperation({
    summary: 'The route a message to a number would take now (a dry run)',
    description:
      'Matches the routes as a send would (prefix, the network of a stored HLR answer, account, traffic) and names the connector its strategy ' +
      'would choose now among healthy targets. Nothing is sent or debited. `route` and `chosen` are null when no route matches: ' +
      'such a number is refused at acceptance (`to: destination non prise en charge`).',
  })
  @RespondWith(200, 'succès', RouteResolutionDto)
  @ApiFailure(400, 'erreur_de_validation', 'A missing or bad number, account id or traffic', { errors: ['to: est obligatoire'] })
  resolve(@Query() query: RouteResolveQueryDto): Promise<RouteResolutionDto> {
    return this.routing.resolve(query);
  }
}
