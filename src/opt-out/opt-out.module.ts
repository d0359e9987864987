import { Module } from '@nestjs/common';
import { OptOutRepository } from './opt-out.repository.js';

/** The opt-out list. */
@Module({
  providers: [OptOutRepository],
  exports: [OptOutRepository],
})
export class OptOutModule {}
