import { Module } from '@nestjs/common';
import { SenderRepository } from './sender.repository.js';

@Module({
  providers: [SenderRepository],
  exports: [SenderRepository],
})
export class SenderModule {}
