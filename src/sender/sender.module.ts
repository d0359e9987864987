import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookModule } from '../webhook/webhook.module.js';
import { LocalNumber } from './entities/local-number.entity.js';
import { SenderDirectory } from './sender-directory.js';
import { SenderReview } from './sender-review.service.js';
import { SenderController } from './sender.controller.js';
import { SenderRepository } from './sender.repository.js';
import { SenderService } from './sender.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([LocalNumber]), WebhookModule],
  controllers: [SenderController],
  providers: [SenderRepository, SenderDirectory, SenderService, SenderReview],
  exports: [SenderRepository, SenderDirectory, SenderReview],
})
export class SenderModule {}
