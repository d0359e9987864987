import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookModule } from '../webhook/webhook.module.js';
import { LocalNumber } from './entities/local-number.entity.js';
import { SenderDirectory } from './sender-directory.js';
import { SenderReviewController } from './sender-review.controller.js';
import { SenderReview } from './sender-review.service.js';
import { SenderController } from './sender.controller.js';
import { SenderRepository } from './sender.repository.js';
import { SenderService } from './sender.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([LocalNumber]), WebhookModule],
  controllers: [SenderController, SenderReviewController],
  providers: [SenderRepository, SenderDirectory, SenderService, SenderReview],
  exports: [SenderRepository, SenderDirectory, SenderReview],
})
export class SenderModule {}
