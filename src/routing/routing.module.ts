import { Module } from '@nestjs/common';
import { KnownNetworks } from './known-networks.repository.js';
import { SmsDestinations } from './sms-destinations.service.js';
import { SmsRoutes } from './sms-routes.service.js';

/** The SMS routing table (SMS_ROUTING_FILE, reloaded on SIGHUP) and the route each destination takes. */
@Module({
  providers: [SmsRoutes, KnownNetworks, SmsDestinations],
  exports: [SmsRoutes, SmsDestinations],
})
export class RoutingModule {}
