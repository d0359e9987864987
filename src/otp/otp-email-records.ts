import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { DeliveryRecordStore } from '../delivery/delivery-records.js';

/** An e-mail OTP keeps its delivery state on the OTP itself. */
@Injectable()
export class OtpEmailRecords implements DeliveryRecordStore {
  async markSent(sql: Sql, uniqId: string, provider: string, [providerId]: string[], at: Date): Promise<void> {
    await sql.later(
      `UPDATE otp SET delivery_status = 'sent', provider = ?, provider_id = ?, done_at = ?
        WHERE uniq_id = ? AND delivery_status = 'pending'`,
      [provider, providerId, at, uniqId],
    );
  }

  async markFailed(sql: Sql, uniqId: string, provider: string | null, _providerStatus: string | null, at: Date) {
    const changed = await sql.run(
      `UPDATE otp SET delivery_status = 'failed', provider = COALESCE(?, provider), done_at = ?
        WHERE uniq_id = ? AND delivery_status = 'pending'`,
      [provider, at, uniqId],
    );
    return changed === 1;
  }
}
