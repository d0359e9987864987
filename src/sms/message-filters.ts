import { ApiError } from '../common/errors/api-error.js';
import { parsePhone } from '../common/recipient.js';
import type { MessageStatus } from './dto/message-out.dto.js';
import type { MessageOutQueryDto } from './dto/message-out-query.dto.js';

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;
export const RANGE_TOO_WIDE = `created_from: intervalle de ${MAX_RANGE_DAYS} jours maximum`;
export const RANGE_REVERSED = 'created_to: doit être postérieur à created_from';

/** What GET /sms/out filters on, normalised; every filter given must hold. */
export interface MessageFilters {
  statuses?: MessageStatus[];
  type?: 'otp' | 'sms';
  lot?: string;
  externalId?: string;
  campaignId?: string;
  senderId?: string;
  contactId?: string;
  /** E.164. */
  recipient?: string;
  createdFrom: Date;
  /** None: up to now. */
  createdTo?: Date;
}

/**
 * The filters of a list query (checked by its DTO): statuses once each, the
 * recipient in E.164, and the creation range, by default the 30 days before
 * `created_to` (or now), refused when it is wider than 366 days or reversed.
 */
export function messageFilters(query: MessageOutQueryDto, now: Date): MessageFilters {
  const createdTo = query.created_to === undefined ? undefined : new Date(query.created_to);
  const end = createdTo ?? now;
  const createdFrom = query.created_from === undefined ? new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS) : new Date(query.created_from);
  if (createdTo && createdTo.getTime() <= createdFrom.getTime()) throw ApiError.validation([RANGE_REVERSED]);
  if (end.getTime() - createdFrom.getTime() > MAX_RANGE_DAYS * DAY_MS) throw ApiError.validation([RANGE_TOO_WIDE]);
  return {
    statuses: query.status === undefined ? undefined : ([...new Set(query.status.split(',').map((status) => status.trim()))].sort() as MessageStatus[]),
    type: query.type,
    lot: query.lot,
    externalId: query.external_id,
    campaignId: query.campaign_id,
    senderId: query.sender_id,
    contactId: query.contact_id,
    recipient: query.to === undefined ? undefined : parsePhone(query.to)!.e164,
    createdFrom,
    createdTo,
  };
}

/** The filters a cursor is bound to: those given, as normalised (the default range is not one: it moves with the clock). */
export const boundFilters = (filters: MessageFilters, query: MessageOutQueryDto): Record<string, unknown> => ({
  ...filters,
  statuses: filters.statuses?.join(','),
  createdFrom: query.created_from === undefined ? undefined : filters.createdFrom.toISOString(),
  createdTo: filters.createdTo?.toISOString(),
});
