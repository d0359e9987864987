import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * HLR lookups (SPEC-2 §1.5): one row per number looked up, a job claimed by
 * the lookup worker while `available_at` is set (LeasedTable), listed newest
 * first with the `lot` and `status` filters served by indexes ending in the
 * time-ordered id. Lookups are priced per number from `HLR` price rows.
 */
export class Hlr1764900000000 implements MigrationInterface {
  name = 'Hlr1764900000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    await runner.createTable(
      new Table({
        name: 'hlr_lookup',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.exact('lot', 64),
          c.exactText('external_id', 100, { isNullable: true }),
          c.exact('number', 16),
          c.exact('country', 2, { isNullable: true }),
          c.exact('status', 12),
          { name: 'valid', type: 'boolean', isNullable: true },
          c.exact('reachable', 16, { isNullable: true }),
          { name: 'ported', type: 'boolean', isNullable: true },
          { name: 'roaming', type: 'boolean', isNullable: true },
          c.exact('mccmnc', 6, { isNullable: true }),
          c.text('network_name', 100, { isNullable: true }),
          c.exact('original_mccmnc', 6, { isNullable: true }),
          c.text('original_network_name', 100, { isNullable: true }),
          c.exact('roaming_country', 2, { isNullable: true }),
          c.exact('roaming_mccmnc', 6, { isNullable: true }),
          c.exact('provider', 16, { isNullable: true }),
          c.exactText('provider_id', 64, { isNullable: true }),
          c.exactText('provider_status', 64, { isNullable: true }),
          c.text('error', 255, { isNullable: true }),
          c.id('message_price_id', { isNullable: true }),
          c.money('amount'),
          c.text('webhook_url', 2048, { isNullable: true }),
          c.text('webhook_response', 1200, { isNullable: true }),
          { name: 'attempts', type: 'int', default: 0 },
          // null once the lookup is done
          c.time('available_at', { isNullable: true }),
          c.exact('claimed_by', 64, { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
          c.time('done_at', { isNullable: true }),
        ],
        indices: [
          { name: 'IDX_hlr_lookup_available', columnNames: ['available_at', 'id'] },
          { name: 'IDX_hlr_lookup_account_id', columnNames: ['account_id', 'id'] },
          { name: 'IDX_hlr_lookup_account_lot', columnNames: ['account_id', 'lot', 'id'] },
          { name: 'IDX_hlr_lookup_account_status', columnNames: ['account_id', 'status', 'id'] },
        ],
      }),
    );
    await seedHlrPrices(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query("DELETE FROM message_price WHERE channel = 'HLR'");
    await runner.dropTable('hlr_lookup', true);
  }
}

/** Per number looked up, in hundredths: the `*` row applies to any country without its own row. */
const HLR_PRICES: Array<[id: string, dialCode: string, description: string, amount: number]> = [
  ['0191f3a0-0000-7000-8000-0000000004f1', '*', 'HLR, toute destination', 1500],
  ['0191f3a0-0000-7000-8000-0000000004f2', '+225', "HLR Côte d'Ivoire", 1000],
  ['0191f3a0-0000-7000-8000-0000000004f3', '+221', 'HLR Sénégal', 1000],
  ['0191f3a0-0000-7000-8000-0000000004f4', '+237', 'HLR Cameroun', 1000],
  ['0191f3a0-0000-7000-8000-0000000004f5', '+33', 'HLR France', 1200],
];

async function seedHlrPrices(runner: QueryRunner): Promise<void> {
  const createdAt = new Date().toISOString().slice(0, 23).replace('T', ' ');
  for (const [id, dialCode, description, amount] of HLR_PRICES) {
    await runner.query('INSERT INTO message_price (id, channel, dial_code, description, amount, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      'HLR',
      dialCode,
      description,
      amount,
      createdAt,
    ]);
  }
}
