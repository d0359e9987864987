import { Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';
import { ConnectorDto } from './dto/connector.dto.js';
import { CONNECTOR_NOT_FOUND, RoutingAdmin } from './routing-admin.service.js';

const ConnectorIdParam = () => ApiParam({ name: 'id', description: 'The connector id of the routing file', example: 'orange-ci' });
const ConnectorNotFound = () => ApiFailure(404, CONNECTOR_NOT_FOUND, 'No connector with this id in the routing table in force');

/** The SMS connectors of the routing table in force, as the instance that answers sees them, and their drains. */
@AdminController('connectors')
export class ConnectorAdminController {
  constructor(private readonly routing: RoutingAdmin) {}

  @Get()
  @ApiOperation({
    summary: 'List the SMS connectors with their health',
    description:
      'Binds, circuit, rate and submits in flight are those of the instance that answers (each instance binds on its own); ' +
      'a drain holds on every instance. In the order of the routing file, on one page.',
  })
  @RespondWithList(ConnectorDto)
  list(): ListPage<ConnectorDto> {
    return this.routing.listConnectors();
  }

  @Post(':id/drain')
  @ApiOperation({
    summary: 'Take a connector out of every route',
    description:
      'On every instance (within 2 seconds on the others): no message is handed to it any more, its messages not yet taken go to the next ' +
      'healthy target of their route at their next claim, the rest of a long message whose first parts it took waits for it. Its binds stay up, ' +
      'so receipts and inbound messages still arrive.',
  })
  @ConnectorIdParam()
  @TakesNoBody()
  @RespondWith(200, 'succès', ConnectorDto)
  @ConnectorNotFound()
  @ApiFailure(409, 'transition_invalide', 'The connector is drained already', { errors: ['status: connecteur déjà retiré des routes'] })
  drain(@Param('id') id: string): Promise<ConnectorDto> {
    return this.routing.drain(id);
  }

  @Post(':id/enable')
  @ApiOperation({ summary: 'Put a drained connector back in its routes', description: 'On every instance (within 2 seconds on the others).' })
  @ConnectorIdParam()
  @TakesNoBody()
  @RespondWith(200, 'succès', ConnectorDto)
  @ConnectorNotFound()
  @ApiFailure(409, 'transition_invalide', 'The connector is not drained', { errors: ['status: connecteur déjà actif'] })
  enable(@Param('id') id: string): Promise<ConnectorDto> {
    return this.routing.enable(id);
  }
}
