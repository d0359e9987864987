import { contactProblems, readContactPhone } from './contact-rules.js';
import type { ContactDto } from './dto/contact.dto.js';
import type { ContactInputDto, UpdateContactDto } from './dto/contact-input.dto.js';
import type { ContactInput } from './contact-writer.js';
import type { ContactRecord } from './contact.repository.js';

export const toContactDto = (contact: ContactRecord): ContactDto => ({
  id: contact.id,
  company_id: contact.accountId,
  name: contact.name,
  email: contact.email,
  phone: contact.phone,
  country: contact.country,
  language: contact.language,
  attributes: contact.attributes,
  opted_out: contact.optedOut,
  created_by: contact.createdBy,
  created_at: contact.createdAt.toISOString(),
  updated_at: contact.updatedAt.toISOString(),
});

/** A validated body's fields (undefined: not given); null name or e-mail clears it, null language is the default. */
export function toContactInput(dto: ContactInputDto): ContactInput;
export function toContactInput(dto: UpdateContactDto): Partial<ContactInput>;
export function toContactInput(dto: ContactInputDto | UpdateContactDto): Partial<ContactInput> {
  const input: Partial<ContactInput> = {};
  if (typeof dto.phone === 'string') input.phone = readContactPhone(dto.phone, dto)!;
  if (dto.name !== undefined) input.name = dto.name?.trim() || null;
  if (dto.email !== undefined) input.email = dto.email ? dto.email.trim().toLowerCase() : null;
  if (dto.language !== undefined) input.language = dto.language ?? 'fr';
  if (dto.attributes !== undefined && dto.attributes !== null) input.attributes = dto.attributes;
  return input;
}

/** A contact that did not come as a request's body (a CSV row, an item of a bulk request), checked as ContactInputDto checks one. */
export function readContactInput(fields: Readonly<Record<string, unknown>>): { input: ContactInput } | { errors: string[] } {
  const errors = contactProblems(fields);
  // the rules passed: each field given has the type ContactInputDto declares
  return errors.length > 0 ? { errors } : { input: toContactInput(fields as unknown as ContactInputDto) };
}
