import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PassportModule } from '@nestjs/passport';
import { AccountModule } from '../account/account.module.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { CredentialsService } from './credentials.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { JwtStrategy } from './jwt.strategy.js';
import { OperatorKeyRepository } from './operator-key.repository.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), PassportModule, AccountModule],
  providers: [
    CredentialsService,
    ApiKeyRepository,
    OperatorKeyRepository,
    JwtStrategy,
    TokenService,
    BearerAuthGuard,
  ],
  exports: [ApiKeyRepository, OperatorKeyRepository, TokenService, CredentialsService, BearerAuthGuard],
})
export class AuthModule {}
