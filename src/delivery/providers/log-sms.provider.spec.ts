import { jest } from '@jest/globals';
import type { DeliveryConfig } from '../../config/delivery.config.js';
import type { Sql } from '../../database/sql.js';
import type { LogReceiptRepository } from './log-receipt.repository.js';
import { LogSmsProvider } from './log-sms.provider.js';

describe(LogSmsProvider.name, () => {
  const sql = {} as Sql;
  const providerWith = (logReceiptDelayMs: number) => {
    const schedule = jest.fn<LogReceiptRepository['schedule']>(() => Promise.resolve());
    const provider = new LogSmsProvider({ logReceiptDelayMs } as DeliveryConfig, { schedule } as unknown as LogReceiptRepository);
    return { provider, schedule };
  };
  const submission = { messageId: 'm1', accountId: 'a1', traffic: 'otp' as const, from: 'DEMO', to: '+2250707070707', text: 'Code 123456', secrets: ['123456'], validUntil: null, resume: null, bulk: false };

  it('accepts each SMS under the id log-<uniq_id>', async () => {
    expect(await providerWith(2000).provider.submit(submission)).toEqual({ providerIds: ['log-m1'] });
  });

  it('schedules its DELIVRD receipt LOG_RECEIPT_DELAY_MS after the hand-over, in the unit that records it', async () => {
    const { provider, schedule } = providerWith(2000);
    const at = new Date('2026-11-22T08:00:00.000Z');

    await provider.accepted(sql, ['log-m1'], at);

    expect(provider.sendsReceipts).toBe(true);
    expect(schedule).toHaveBeenCalledWith(sql, ['log-m1'], new Date('2026-11-22T08:00:02.000Z'), at);
  });

  it('sends no receipt with LOG_RECEIPT_DELAY_MS=0: its messages stay sent', async () => {
    const { provider, schedule } = providerWith(0);

    await provider.accepted(sql, ['log-m1'], new Date());

    expect(provider.sendsReceipts).toBe(false);
    expect(schedule).not.toHaveBeenCalled();
  });
});
