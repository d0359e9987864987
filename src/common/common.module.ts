import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock.js';

/** Plumbing every feature may use. */
@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock],
})
export class CommonModule {}
