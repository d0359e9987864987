import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { BodyLimit } from '../common/http/body-parsers.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { ContactBulkService } from './contact-bulk.service.js';
import { CONTACT_NOT_FOUND, ContactService } from './contact.service.js';
import { BulkContactsDto, BulkResultDto } from './dto/bulk-contacts.dto.js';
import { ContactDetailDto, ContactDto } from './dto/contact.dto.js';
import { CreateContactDto, UpdateContactDto } from './dto/contact-input.dto.js';
import { ContactQueryDto } from './dto/contact-query.dto.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

const ContactIdParam = () =>
  ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the contact', example: '0193a3c2-a1b2-7c3d-8e4f-5a6b7c8d9e01' });
const ContactNotFound = () => ApiFailure(404, CONTACT_NOT_FOUND, "No such contact in the caller's account (also for a malformed id)");
const PhoneTaken = () =>
  ApiFailure(409, 'deja_existant', 'The account has a contact with this phone', {
    errors: ['phone: un contact existe déjà (id 0193a3c2-a1b2-7c3d-8e4f-5a6b7c8d9e01)'],
  });
const InvalidContact = () =>
  ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', {
    errors: ['phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'],
  });

@ApiTags('Contact')
@Controller('contact')
export class ContactController {
  constructor(
    private readonly contacts: ContactService,
    private readonly bulk: ContactBulkService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a contact', description: 'The phone is unique in the account. `group_ids` puts the contact in groups of the account.' })
  @RespondWith(201, 'succès', ContactDto)
  @InvalidContact()
  @PhoneTaken()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateContactDto): Promise<ContactDto> {
    return this.contacts.create(principal, body);
  }

  @Get()
  @ApiOperation({
    summary: "List and search the account's contacts, newest first",
    description: '`q` matches the start of the name or e-mail (case and accents ignored) or of the phone digits.',
  })
  @RespondWithList(ContactDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['q: doit faire au moins 2 caractères'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ContactQueryDto): Promise<ListPage<ContactDto>> {
    return this.contacts.list(principal, query);
  }

  @Post('bulk')
  @BodyLimit('bulk')
  @ApiOperation({
    summary: 'Create or update up to 1,000 contacts',
    description:
      'Each contact is checked alone: those with errors are reported by index and the others are written, in one transaction. ' +
      'A phone given twice counts once (the first). The body may be up to `BULK_BODY_LIMIT_BYTES` (1 MiB).',
  })
  @RespondWith(200, 'succès', BulkResultDto)
  @ApiFailure(400, 'erreur_de_validation', 'The request itself is invalid', { errors: ['contacts: doit être une liste de 1 à 1000 contacts'] })
  @ApiIdempotencyKey()
  upsertMany(
    @CurrentPrincipal() principal: Principal,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Body() body: BulkContactsDto,
  ): Promise<BulkResultDto> {
    return this.bulk.execute(principal, body, idempotency);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read one contact, with its groups' })
  @ContactIdParam()
  @RespondWith(200, 'succès', ContactDetailDto)
  @ContactNotFound()
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ContactDetailDto> {
    return this.contacts.findOne(principal, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a contact', description: 'Any field but `opted_out`; `attributes` replaces the whole object.' })
  @ContactIdParam()
  @RespondWith(200, 'succès', ContactDto)
  @InvalidContact()
  @ContactNotFound()
  @PhoneTaken()
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateContactDto): Promise<ContactDto> {
    return this.contacts.update(principal, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact', description: 'Its memberships end; its messages keep their `contact_id` and its opt-out entry stays.' })
  @ContactIdParam()
  @RespondWith(200, 'success')
  @ContactNotFound()
  @TakesNoBody()
  delete(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.contacts.delete(principal.accountId, id);
  }
}
