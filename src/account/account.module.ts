import { Module } from '@nestjs/common';
import { AccountController } from './account.controller.js';
import { AccountRepository } from './account.repository.js';
import { AccountService } from './account.service.js';
import { UserRepository } from './user.repository.js';

@Module({
  controllers: [AccountController],
  providers: [AccountService, AccountRepository, UserRepository],
  exports: [AccountRepository, UserRepository],
})
export class AccountModule {}
