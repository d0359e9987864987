import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountController } from './account.controller.js';
import { AccountRepository } from './account.repository.js';
import { AccountService } from './account.service.js';
import { Account } from './entities/account.entity.js';
import { User } from './entities/user.entity.js';
import { UserRepository } from './user.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([Account, User])],
  controllers: [AccountController],
  providers: [AccountService, AccountRepository, UserRepository],
  exports: [AccountRepository, UserRepository],
})
export class AccountModule {}
