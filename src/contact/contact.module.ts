import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactRepository } from './contact.repository.js';
import { Contact } from './entities/contact.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Contact])],
  providers: [ContactRepository],
  exports: [ContactRepository],
})
export class ContactModule {}
