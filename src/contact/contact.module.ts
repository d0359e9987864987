import { Module } from '@nestjs/common';
import { ContactRepository } from './contact.repository.js';

@Module({
  providers: [ContactRepository],
  exports: [ContactRepository],
})
export class ContactModule {}
