import type { Sql } from '../database/sql.js';
import { BillingService } from './billing.service.js';
import { PriceRepository, type Price, type PricedChannel } from './price.repository.js';

class StubPrices extends PriceRepository {
  readonly calls: Array<{ sql: Sql; channel: PricedChannel; dialCode: string }> = [];

  constructor(private readonly price: Price | undefined) {
    super();
  }

  override async find(sql: Sql, channel: PricedChannel, dialCode: string): Promise<Price | undefined> {
    this.calls.push({ sql, channel, dialCode });
    return this.price;
  }
}

const sql = {} as Sql;
const SMS_CI: Price = { id: 'price-sms-225', description: 'SMS Côte d’Ivoire', amount: 250 };
const EMAIL: Price = { id: 'price-email', description: 'E-mail', amount: 50 };

describe(BillingService.name, () => {
  it('asks the repository for the channel and dial code', async () => {
    const prices = new StubPrices(SMS_CI);
    await new BillingService(prices).quote(sql, 'SMS', '+225', 'Code 1234');
    expect(prices.calls).toEqual([{ sql, channel: 'SMS', dialCode: '+225' }]);
  });

  it('prices a one-segment SMS at the unit price', async () => {
    const quote = await new BillingService(new StubPrices(SMS_CI)).quote(sql, 'SMS', '+225', 'Votre code est 482913');
    expect(quote).toEqual({
      priceId: 'price-sms-225',
      priceDescription: 'SMS Côte d’Ivoire',
      amount: 250,
      segments: 1,
      encoding: 'GSM7',
    });
  });

  it('multiplies the unit price by the GSM-7 segments', async () => {
    const quote = await new BillingService(new StubPrices(SMS_CI)).quote(sql, 'SMS', '+225', 'a'.repeat(307));
    expect(quote).toEqual({ priceId: 'price-sms-225', priceDescription: 'SMS Côte d’Ivoire', amount: 750, segments: 3, encoding: 'GSM7' });
  });

  it('multiplies the unit price by the UCS-2 segments', async () => {
    const quote = await new BillingService(new StubPrices(SMS_CI)).quote(sql, 'SMS', '+225', 'ж'.repeat(71));
    expect(quote).toEqual({ priceId: 'price-sms-225', priceDescription: 'SMS Côte d’Ivoire', amount: 500, segments: 2, encoding: 'UCS2' });
  });

  it('prices an e-mail flat whatever its length', async () => {
    const quote = await new BillingService(new StubPrices(EMAIL)).quote(sql, 'EMAIL', '', 'ж'.repeat(1600));
    expect(quote).toEqual({ priceId: 'price-email', priceDescription: 'E-mail', amount: 50, segments: 1, encoding: null });
  });

  it('is null when no price applies', async () => {
    expect(await new BillingService(new StubPrices(undefined)).quote(sql, 'SMS', '+999', 'Code 1234')).toBeNull();
  });
});
