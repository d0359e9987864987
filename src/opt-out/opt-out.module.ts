import { Module } from '@nestjs/common';
import { WebhookModule } from '../webhook/webhook.module.js';
import { OptOutController } from './opt-out.controller.js';
import { OptOutRepository } from './opt-out.repository.js';
import { OptOutService } from './opt-out.service.js';
import { OptOutWriter } from './opt-out-writer.js';

/** The opt-out list: its routes, and its changes with their webhook events. */
@Module({
  imports: [WebhookModule],
  controllers: [OptOutController],
  providers: [OptOutRepository, OptOutWriter, OptOutService],
  exports: [OptOutRepository, OptOutWriter, OptOutService],
})
export class OptOutModule {}
