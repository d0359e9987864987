import type { AttemptRecord } from './fraud-attempt.repository.js';
import { isActive, type BlockRecord } from './fraud-block.repository.js';
import type { ListEntryRecord } from './fraud-list.repository.js';
import type { FraudAttemptDto } from './dto/fraud-attempt.dto.js';
import type { FraudBlockDto } from './dto/fraud-block.dto.js';
import type { FraudListEntryDto } from './dto/fraud-list.dto.js';

const time = (at: Date | null): string | null => at?.toISOString() ?? null;

export const toListEntryDto = (entry: ListEntryRecord): FraudListEntryDto => ({
  id: entry.id,
  account_id: entry.accountId,
  sandbox: entry.sandbox,
  list: entry.list,
  kind: entry.kind,
  value: entry.value,
  note: entry.note,
  expires_at: time(entry.expiresAt),
  created_by: entry.createdBy,
  created_at: entry.createdAt.toISOString(),
});

export const toBlockDto = (block: BlockRecord, now: Date): FraudBlockDto => ({
  id: block.id,
  account_id: block.accountId,
  sandbox: block.sandbox,
  scope: block.scope,
  value: block.value,
  reason: block.reason,
  mode: block.mode,
  strikes: block.strikes,
  blocked_until: block.until.toISOString(),
  lifted_at: time(block.liftedAt),
  active: isActive(block, now),
  created_at: block.createdAt.toISOString(),
});

export const toAttemptDto = (attempt: AttemptRecord): FraudAttemptDto => ({
  id: attempt.id,
  account_id: attempt.accountId,
  sandbox: attempt.sandbox,
  mode: attempt.mode,
  reasons: attempt.reasons,
  channel: attempt.channel === 'SMS' ? 'sms' : 'email',
  to: attempt.recipient,
  country: attempt.country,
  prefix: attempt.prefix,
  client_ip: attempt.clientIp,
  user_ref: attempt.userRef,
  otp_id: attempt.otpId,
  blocked_until: time(attempt.blockedUntil),
  created_at: attempt.createdAt.toISOString(),
});
