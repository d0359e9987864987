import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import type { PhoneNumber } from '../common/recipient.js';
import type { Sql } from '../database/sql.js';
import type { Language } from '../common/language.js';
import { MAX_ATTRIBUTES } from './contact-rules.js';
import { ContactRepository, type ContactColumns } from './contact.repository.js';

/** A contact's fields as a client gave them: `undefined` is a field not given. */
export interface ContactInput {
  phone: Readonly<PhoneNumber>;
  name?: string | null;
  email?: string | null;
  language?: Language;
  attributes?: Record<string, string>;
}

/** What became of one input. */
export type UpsertOutcome =
  | { kind: 'created' | 'updated' | 'existing'; id: string }
  /** Its phone came earlier in the same batch, which wins. */
  | { kind: 'duplicate'; id: string }
  | { kind: 'invalid'; errors: string[] };

export interface UpsertOptions {
  accountId: string;
  createdBy: string | null;
  /** For a phone the account has: leave the contact, or write the fields given (attributes merged key by key). */
  onDuplicate: 'skip' | 'update';
  at: Date;
}

/**
 * Writes batches of contacts by phone, the way bulk upserts, imports and
 * member adds by phone all need: the phones the account does not have are
 * inserted, 500 per statement (ContactRepository.insertAbsent), which gives
 * back the contacts holding the others, locked. A phone another unit of work
 * inserted in the meantime is one the account had.
 */
@Injectable()
export class ContactWriter {
  constructor(private readonly contacts: ContactRepository) {}

  async upsert(sql: Sql, inputs: readonly ContactInput[], options: UpsertOptions): Promise<UpsertOutcome[]> {
    // by phone, the contact its first input would create
    const fresh = new Map<string, { index: number; id: string; columns: ContactColumns }>();
    inputs.forEach((input, index) => {
      if (!fresh.has(input.phone.e164)) fresh.set(input.phone.e164, { index, id: newId(options.at), columns: newColumns(input) });
    });
    const held = await this.contacts.insertAbsent(sql, options.accountId, options.createdBy, options.at, [...fresh.values()]);
    const had = new Map(held.map((contact) => [contact.phone, contact]));

    const outcomes: UpsertOutcome[] = [];
    for (const [index, input] of inputs.entries()) {
      const created = fresh.get(input.phone.e164)!;
      const existing = had.get(input.phone.e164);
      const id = existing?.id ?? created.id;
      if (created.index !== index) outcomes.push({ kind: 'duplicate', id });
      else if (!existing) outcomes.push({ kind: 'created', id });
      else if (options.onDuplicate === 'skip') outcomes.push({ kind: 'existing', id });
      else outcomes.push(await this.update(sql, options, existing, input));
    }
    return outcomes;
  }

  private async update(sql: Sql, options: UpsertOptions, existing: { id: string; columns: ContactColumns }, input: ContactInput): Promise<UpsertOutcome> {
    const attributes = { ...existing.columns.attributes, ...input.attributes };
    if (Object.keys(attributes).length > MAX_ATTRIBUTES) {
      return { kind: 'invalid', errors: [`attributes: ${MAX_ATTRIBUTES} clés au plus avec celles du contact existant`] };
    }
    await this.contacts.update(sql, options.accountId, existing.id, { ...applyInput(existing.columns, input), attributes }, options.at);
    return { kind: 'updated', id: existing.id };
  }
}

/** A contact's columns with the fields given written over them (`attributes` replaced). */
export function applyInput(columns: ContactColumns, input: Partial<ContactInput>): ContactColumns {
  return {
    phone: input.phone?.e164 ?? columns.phone,
    country: input.phone ? input.phone.country : columns.country,
    name: input.name === undefined ? columns.name : input.name,
    email: input.email === undefined ? columns.email : input.email,
    language: input.language ?? columns.language,
    attributes: input.attributes ?? columns.attributes,
  };
}

const newColumns = (input: ContactInput): ContactColumns =>
  applyInput({ phone: input.phone.e164, country: input.phone.country, name: null, email: null, language: 'fr', attributes: {} }, input);
