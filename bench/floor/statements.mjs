// The statements of the OTP send, its hand-over and the verification, as the service writes them for each database
// (floor-statements.e2e-spec.ts holds the two lists equal). Where the dialects differ, a function of the dialect.

const mysql = (dialect) => dialect === 'mysql';

export const API_KEY = `SELECT k.id, k.user_id, k.account_id, k.is_test
  FROM api_key k JOIN user u ON u.id = k.user_id
 WHERE k.key_hash = ? AND k.revoked_at IS NULL AND u.deleted_at IS NULL`;

export const RATE_LIMIT_LEASE = (dialect) =>
  mysql(dialect)
    ? `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, LAST_INSERT_ID(?))
       ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + ?)`
    : `INSERT INTO rate_limit_window (bucket, window_start, hits) VALUES (?, ?, ?)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + excluded.hits RETURNING hits`;

export const DEFAULT_SENDER = 'SELECT id, name, status FROM sender WHERE account_id = ? AND is_default = 1 LIMIT 1';

export const PRICE = 'SELECT id, description, amount FROM message_price WHERE channel = ? AND dial_code = ?';

const CLAIM_RECIPIENT = 'INSERT INTO otp_recipient (account_id, recipient, latest_otp_id, created_at) VALUES (?, ?, ?, ?)';
export const CLAIM_RECIPIENT_ROW = (dialect) =>
  mysql(dialect)
    ? `${CLAIM_RECIPIENT} ON DUPLICATE KEY UPDATE latest_otp_id = ?`
    : `${CLAIM_RECIPIENT} ON CONFLICT (account_id, recipient) DO UPDATE SET latest_otp_id = ?`;

/** A recipient's OTPs, through their index (the service names it: MariaDB's optimizer would weigh the table's every index). */
const RECIPIENT_OTPS = (dialect) =>
  `otp AS o ${mysql(dialect) ? 'FORCE INDEX (IDX_otp_account_recipient_created)' : 'INDEXED BY IDX_otp_account_recipient_created'}`;

export const RECENT_SENDS = (dialect) => `SELECT SUM(CASE WHEN created_at > ? THEN 1 ELSE 0 END) AS count, MIN(CASE WHEN created_at > ? THEN created_at END) AS oldest,
       SUM(CASE WHEN created_at > ? THEN 1 ELSE 0 END) AS alive
  FROM ${RECIPIENT_OTPS(dialect)} WHERE account_id = ? AND recipient = ? AND created_at > ?`;

export const INSERT_OTP = `INSERT INTO otp (uniq_id, account_id, recipient, channel, code_hash, status, attempts, expires_at, application_name,
  language, lot, created_by, is_test, delivery_status, created_at, client_ip, user_ref, country, prefix)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The fraud guard's settings of an account and mode (policy, list entries, blocks), read in one round trip and kept. */
export const FRAUD_POLICY = 'SELECT policy, version FROM fraud_policy WHERE account_id = ? AND sandbox = ?';
export const FRAUD_LISTS = 'SELECT list, kind, value, expires_at FROM fraud_list_entry WHERE account_id = ? AND sandbox = ? AND (expires_at IS NULL OR expires_at > ?)';
export const FRAUD_BLOCKS = `SELECT id, scope, value, reason, mode, blocked_until, lifted_at FROM fraud_block
 WHERE account_id = ? AND sandbox = ? AND blocked_until > ? AND (lifted_at IS NULL OR lifted_at > ?)`;

export const SUPERSEDE = (dialect) => `UPDATE ${RECIPIENT_OTPS(dialect)} SET status = 'superseded'
 WHERE account_id = ? AND recipient = ? AND created_at > ? AND status = 'pending' AND uniq_id <> ?`;

export const INSERT_MESSAGE = `INSERT INTO message_out (uniq_id, account_id, external_id, message_price_id, type, lot, sender_id, recipient, country,
  message, page, message_encoding, amount, send_at, status, source, contact_id, campaign_id, webhook_url, dlr_number_retry, created_by, retrieve,
  local_number, language, is_test, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export const INSERT_OUTBOX = `INSERT INTO outbox (kind, record_id, account_id, amount, payload, is_test, deliver_before, attempts, scheduled, bulk,
  available_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export const DEBIT = 'UPDATE account SET balance = balance - ? WHERE id = ?';

export const LEDGER_ROW = `INSERT INTO ledger_entry (account_id, amount, kind, reference, reference_type, lot, created_by, description, created_at, balance_after)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, balance FROM account WHERE id = ?`;

export const LOW_BALANCE_THRESHOLD = 'SELECT low_balance_threshold AS threshold FROM account WHERE id = ?';

const OUTBOX_DUE = 'FROM outbox WHERE available_at <= ? AND bulk = ? ORDER BY available_at, id';
/** MariaDB: the lane's due rows counted without locks first, so that the locking read stops on the lane's last row. */
export const OUTBOX_DUE_IDS = (limit) => `SELECT id ${OUTBOX_DUE} LIMIT ${limit}`;
export const OUTBOX_CLAIM = (dialect, limit) =>
  `SELECT id, kind, record_id, account_id, amount, payload, is_test, deliver_before, attempts, resume_state, scheduled, bulk, created_at ${OUTBOX_DUE} LIMIT ${limit}${mysql(dialect) ? ' FOR UPDATE SKIP LOCKED' : ''}`;
export const OUTBOX_LEASE = (ids) => `UPDATE outbox SET available_at = ?, claimed_by = ?, attempts = attempts + 1 WHERE id IN (${marks(ids)})`;

export const MARK_SENT = `UPDATE message_out SET status = 'sent', event_sequence = event_sequence + 1, provider = ?, provider_id = ?, send_at = ?
 WHERE uniq_id = ? AND status = 'pending'`;
/** `count` submits of messages to their connector, in one statement. */
export const MESSAGE_ATTEMPTS = (count) => `INSERT INTO message_attempt (uniq_id, connector, outcome, at) VALUES ${Array(count).fill('(?, ?, ?, ?)').join(', ')}`;
export const OUTBOX_DONE = (ids) => `DELETE FROM outbox WHERE id IN (${marks(ids)})`;
/** What the `sms.sent` events of the messages would report, and whether the account's webhook takes them. */
export const MESSAGES_FOR_EVENTS = (ids) => `SELECT m.uniq_id, m.account_id, m.lot, m.external_id, m.recipient, m.status, m.provider_status, m.mccmnc, m.page,
       m.amount, m.send_at, m.done_at, m.event_sequence, m.is_test, m.webhook_url, m.campaign_id, s.name AS sender_name,
       w.events AS webhook_events
  FROM message_out m LEFT JOIN sender s ON s.id = m.sender_id
  LEFT JOIN account_webhook w ON w.account_id = m.account_id AND w.url IS NOT NULL AND w.disabled_at IS NULL
 WHERE m.uniq_id IN (${marks(ids)})`;

export const LATEST_OTP = (dialect) => `SELECT o.uniq_id, o.channel, o.code_hash, o.status, o.attempts, o.expires_at, o.application_name,
       o.created_at, o.delivery_status, m.status AS message_status
  FROM otp_recipient r
  JOIN otp o ON o.uniq_id = r.latest_otp_id
  LEFT JOIN message_out m ON m.uniq_id = o.uniq_id
 WHERE r.account_id = ? AND r.recipient = ?${mysql(dialect) ? ' FOR UPDATE' : ''}`;
export const RECENT_FAILURES = `SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM verification_failure
 WHERE account_id = ? AND recipient = ? AND created_at > ?`;
export const WRONG_ATTEMPT = 'UPDATE otp SET attempts = attempts + 1 WHERE uniq_id = ?';
export const RECIPIENT_FAILURE = 'UPDATE otp_recipient SET failures = failures + 1 WHERE account_id = ? AND recipient = ?';
export const INSERT_FAILURE = 'INSERT INTO verification_failure (account_id, recipient, created_at) VALUES (?, ?, ?)';
export const MARK_VERIFIED = "UPDATE otp SET status = 'verified', verified_at = ? WHERE uniq_id = ? AND status = 'pending'";

const marks = (values) => values.map(() => '?').join(', ');
