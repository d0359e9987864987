import { Module } from '@nestjs/common';
import { idempotencyBoxProvider } from './idempotency-box.js';
import { IdempotencyHousekeeping } from './idempotency.housekeeping.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { Idempotency } from './idempotency.service.js';

@Module({
  providers: [Idempotency, IdempotencyRepository, IdempotencyHousekeeping, idempotencyBoxProvider],
  exports: [Idempotency],
})
export class IdempotencyModule {}
