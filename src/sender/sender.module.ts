import { Module } from '@nestjs/common';
import { SenderDirectory } from './sender-directory.js';
import { SenderRepository } from './sender.repository.js';

@Module({
  providers: [SenderRepository, SenderDirectory],
  exports: [SenderRepository, SenderDirectory],
})
export class SenderModule {}
