import { Module } from '@nestjs/common';
import { CredentialRateLimitGuard } from './credential-rate-limit.guard.js';
import { RateLimitHousekeeping } from './rate-limit.housekeeping.js';
import { RateLimitCounter } from './rate-limit.counter.js';
import { RateLimitRepository } from './rate-limit.repository.js';

@Module({
  providers: [RateLimitRepository, RateLimitCounter, RateLimitHousekeeping, CredentialRateLimitGuard],
  exports: [CredentialRateLimitGuard],
})
export class RateLimitModule {}
