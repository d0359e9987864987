import { Injectable } from '@nestjs/common';
import { uuidV7Floor } from '../common/ids.js';
import { readTime, type Param, type Sql } from '../database/sql.js';
import { PREFIX_INDEX, type RideAlong } from '../fraud/velocity-counts.js';

/**
 * The index of a recipient's OTPs, named by the send's read and supersession: MariaDB's optimizer would otherwise weigh,
 * on every send, each index of `otp` led by the account (and, for the supersession, the primary key's two ranges).
 */
const RECIPIENT_INDEX = 'IDX_otp_account_recipient_created';

export type OtpStatus = 'pending' | 'verified' | 'superseded';

export interface NewOtp {
  uniqId: string;
  accountId: string;
  recipient: string;
  channel: 'SMS' | 'EMAIL';
  codeHash: string;
  expiresAt: Date;
  applicationName: string | null;
  language: string;
  lot: string;
  createdBy: string;
  test: boolean;
  at: Date;
  /** What the fraud guard reads of the send: the end user's address and reference, the destination's country and prefix. */
  clientIp: string | null;
  userRef: string | null;
  country: string | null;
  prefix: string | null;
}

/** The latest OTP of a recipient, as verification needs it. */
export interface LatestOtp {
  uniqId: string;
  channel: 'SMS' | 'EMAIL';
  codeHash: string;
  status: OtpStatus;
  attempts: number;
  expiresAt: Date;
  applicationName: string | null;
  createdAt: Date;
  /** Its message could not be handed over. */
  deliveryFailed: boolean;
}

export interface Window {
  count: number;
  oldest: Date | null;
}

/**
 * OTPs and their per-recipient state. Every send and verification of one
 * (account, recipient) first locks that pair's `otp_recipient` row, which
 * serialises them; the row names the latest OTP, by insertion order. Every
 * one that writes anything also writes that row (or the OTP's), so that on a
 * Galera cluster, where row locks do not span nodes, two of them on different
 * nodes conflict at certification and one is retried.
 */
@Injectable()
export class OtpRepository {
  /**
   * Makes `uniqId` the pair's latest OTP, creating the pair's row on first use,
   * in one statement that also locks the row until the transaction ends.
   */
  async claimRecipient(sql: Sql, accountId: string, recipient: string, uniqId: string, at: Date): Promise<void> {
    const insert = 'INSERT INTO otp_recipient (account_id, recipient, latest_otp_id, created_at) VALUES (?, ?, ?, ?)';
    await sql.later(
      sql.dialect === 'mysql'
        ? `${insert} ON DUPLICATE KEY UPDATE latest_otp_id = ?`
        : `${insert} ON CONFLICT (account_id, recipient) DO UPDATE SET latest_otp_id = ?`,
      [accountId, recipient, uniqId, at, uniqId],
    );
  }

  /**
   * Sends accepted for the pair since `since`, with the oldest of them, and
   * whether the pair has any OTP created after `aliveSince` (one that a new
   * code may have to supersede); with `rideAlong` (given the read's start),
   * its columns too (`row`), in the same statement. When the fraud guard
   * counts the recipient's prefix (`RideAlong.prefix`), the pair's OTPs are
   * read among the prefix's, from its index, so that one range serves both
   * (every SMS OTP stores its prefix).
   */
  async recentSends<Extra extends object = object>(
    sql: Sql,
    accountId: string,
    recipient: string,
    since: Date,
    aliveSince: Date,
    rideAlongFrom?: (from: Date) => RideAlong | undefined,
  ): Promise<Window & { anyAlive: boolean; row: Extra }> {
    const from = since < aliveSince ? since : aliveSince;
    const rideAlong = rideAlongFrom?.(from);
    const prefix = rideAlong?.prefix;
    const pair = prefix === undefined ? '' : 'recipient = ? AND ';
    const mine = prefix === undefined ? [] : [recipient];
    const range =
      prefix === undefined
        ? `${sql.indexed('otp', 'o', RECIPIENT_INDEX)} WHERE account_id = ? AND recipient = ?`
        : `${sql.indexed('otp', 'o', PREFIX_INDEX)} WHERE account_id = ? AND is_test IN (0, 1) AND prefix = ?`;
    const row = await sql.get<WindowRow & { alive: number | string | null } & Extra>(
      `SELECT SUM(CASE WHEN ${pair}created_at > ? THEN 1 ELSE 0 END) AS count, MIN(CASE WHEN ${pair}created_at > ? THEN created_at END) AS oldest,
              SUM(CASE WHEN ${pair}created_at > ? THEN 1 ELSE 0 END) AS alive${rideAlong?.columns ? `, ${rideAlong.columns}` : ''}
         FROM ${range} AND created_at > ?`,
      [...mine, since, ...mine, since, ...mine, aliveSince, ...(rideAlong?.params ?? []), accountId, prefix ?? recipient, from],
    );
    return { ...toWindow(row), anyAlive: Number(row?.alive ?? 0) > 0, row: (row ?? {}) as Extra };
  }

  async insert(sql: Sql, otp: NewOtp): Promise<void> {
    await sql.insertLater('otp', {
      uniq_id: otp.uniqId,
      account_id: otp.accountId,
      recipient: otp.recipient,
      channel: otp.channel,
      code_hash: otp.codeHash,
      status: 'pending',
      attempts: 0,
      expires_at: otp.expiresAt,
      application_name: otp.applicationName,
      language: otp.language,
      lot: otp.lot,
      created_by: otp.createdBy,
      is_test: otp.test,
      delivery_status: otp.channel === 'EMAIL' ? 'pending' : null,
      created_at: otp.at,
      client_ip: otp.clientIp,
      user_ref: otp.userRef,
      country: otp.country,
      prefix: otp.prefix,
    });
  }

  /** Supersedes the pair's other pending codes (those still alive: created within the longest lifetime). */
  async supersedeOthers(sql: Sql, accountId: string, recipient: string, uniqId: string, aliveSince: Date): Promise<void> {
    await sql.later(
      `UPDATE ${sql.indexed('otp', 'o', RECIPIENT_INDEX)} SET status = 'superseded'
        WHERE account_id = ? AND recipient = ? AND created_at > ? AND status = 'pending' AND uniq_id <> ?`,
      [accountId, recipient, aliveSince, uniqId],
    );
  }

  /**
   * Locks the pair, then reads its latest OTP and the pair's failed
   * verifications since `failuresSince`, in one round trip.
   */
  async lockLatest(sql: Sql, accountId: string, recipient: string, failuresSince: Date): Promise<{ latest: LatestOtp | null; failures: Window }> {
    const [[row], [failures]] = await sql.allEach<[LatestOtpRow[], WindowRow[]]>(
      [
        `SELECT o.uniq_id, o.channel, o.code_hash, o.status, o.attempts, o.expires_at, o.application_name,
                o.created_at, o.delivery_status, m.status AS message_status
           FROM otp_recipient r
           JOIN otp o ON o.uniq_id = r.latest_otp_id
           LEFT JOIN message_out m ON m.uniq_id = o.uniq_id
          WHERE r.account_id = ? AND r.recipient = ?${sql.forUpdate}`,
        [accountId, recipient],
      ],
      failuresQuery(accountId, recipient, failuresSince),
    );
    return { latest: row ? toLatestOtp(row) : null, failures: toWindow(failures) };
  }

  async countWrongAttempt(sql: Sql, uniqId: string): Promise<void> {
    await sql.later('UPDATE otp SET attempts = attempts + 1 WHERE uniq_id = ?', [uniqId]);
  }

  /** pending → verified. Only under the pair's lock, which makes it the one verification of the code. */
  async markVerified(sql: Sql, uniqId: string, at: Date): Promise<void> {
    await sql.later("UPDATE otp SET status = 'verified', verified_at = ? WHERE uniq_id = ? AND status = 'pending'", [at, uniqId]);
  }

  /**
   * Also counts the failure on the pair's row: the row lock serialises the
   * verifications of one node only, and a written row is what Galera certifies.
   */
  async recordFailure(sql: Sql, accountId: string, recipient: string, at: Date): Promise<void> {
    await sql.later('UPDATE otp_recipient SET failures = failures + 1 WHERE account_id = ? AND recipient = ?', [accountId, recipient]);
    await sql.insertLater('verification_failure', { account_id: accountId, recipient, created_at: at });
  }

  /**
   * Blanks the code hashes of expired OTPs created in [from, to): an expired
   * code is never checked again. The range is one of primary keys (UUID v7).
   */
  async forgetExpiredCodes(sql: Sql, from: Date, to: Date, now: Date): Promise<number> {
    return sql.run("UPDATE otp SET code_hash = '' WHERE uniq_id >= ? AND uniq_id < ? AND expires_at < ? AND code_hash <> ''", [
      uuidV7Floor(from),
      uuidV7Floor(to),
      now,
    ]);
  }

  async purgeFailuresBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM verification_failure WHERE created_at < ?', [before]);
  }
}

interface LatestOtpRow {
  uniq_id: string;
  channel: 'SMS' | 'EMAIL';
  code_hash: string;
  status: OtpStatus;
  attempts: number | string;
  expires_at: string | Date;
  application_name: string | null;
  created_at: string | Date;
  delivery_status: string | null;
  message_status: string | null;
}

interface WindowRow {
  count: number | string;
  oldest: string | Date | null;
}

function toLatestOtp(row: LatestOtpRow): LatestOtp {
  return {
    uniqId: row.uniq_id,
    channel: row.channel,
    codeHash: row.code_hash,
    status: row.status,
    attempts: Number(row.attempts),
    expiresAt: readTime(row.expires_at),
    applicationName: row.application_name,
    createdAt: readTime(row.created_at),
    deliveryFailed: row.delivery_status === 'failed' || row.message_status === 'failed',
  };
}

/** How many verifications of the pair failed after `since`, and the oldest of them. */
function failuresQuery(accountId: string, recipient: string, since: Date): [string, Param[]] {
  return [
    `SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM verification_failure
      WHERE account_id = ? AND recipient = ? AND created_at > ?`,
    [accountId, recipient, since],
  ];
}

const toWindow = (row: WindowRow | undefined): Window => ({ count: Number(row?.count ?? 0), oldest: readTime(row?.oldest ?? null) });
