import { Module } from '@nestjs/common';
import { idempotencyBoxProvider } from './idempotency-box.js';
import { IdempotencyHousekeeping } from './idempotency.housekeeping.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';

@Module({
  providers: [IdempotencyInterceptor, IdempotencyRepository, IdempotencyHousekeeping, idempotencyBoxProvider],
  exports: [IdempotencyInterceptor, IdempotencyRepository, idempotencyBoxProvider],
})
export class IdempotencyModule {}
