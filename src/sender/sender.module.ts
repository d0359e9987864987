import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LocalNumber } from './entities/local-number.entity.js';
import { Sender } from './entities/sender.entity.js';
import { SenderDirectory } from './sender-directory.js';
import { SenderRepository } from './sender.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([Sender, LocalNumber])],
  providers: [SenderRepository, SenderDirectory],
  exports: [SenderRepository, SenderDirectory],
})
export class SenderModule {}
