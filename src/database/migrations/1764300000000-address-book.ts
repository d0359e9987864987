import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The address book: contacts with a unique phone per account, attributes and
 * search keys; groups with a case-insensitive unique name and a member count;
 * the opt-out list; CSV import jobs and their files. Contacts and groups
 * that an earlier version let exist twice are merged (the oldest keeps the
 * memberships) or renamed before the unique keys are made.
 */
export class AddressBook1764300000000 implements MigrationInterface {
  name = 'AddressBook1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    const mysql = runner.connection.driver.options.type === 'mysql';

    for (const column of [
      `country ${mysql ? 'VARCHAR(2) CHARACTER SET ascii COLLATE ascii_bin' : 'VARCHAR(2)'} NULL`,
      `language ${mysql ? 'VARCHAR(2) CHARACTER SET ascii COLLATE ascii_bin' : 'VARCHAR(2)'} NOT NULL DEFAULT 'fr'`,
      'attributes TEXT NULL',
      `search_name ${mysql ? 'VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'VARCHAR(100)'} NULL`,
      `search_email ${mysql ? 'VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'VARCHAR(254)'} NULL`,
      `updated_at DATETIME${mysql ? '(3)' : ''} NULL`,
    ]) {
      await runner.query(`ALTER TABLE contact ADD COLUMN ${column}`);
    }
    await runner.query('UPDATE contact SET updated_at = created_at, search_email = LOWER(email)');
    const named = (await runner.query('SELECT id, name FROM contact WHERE name IS NOT NULL')) as Array<{ id: string; name: string }>;
    for (const { id, name } of named) await runner.query('UPDATE contact SET search_name = ? WHERE id = ?', [contactSearchKey(name), id]);
    await mergeContactsSharingAPhone(runner);
    // the new indexes first: MariaDB's foreign key on account_id needs one at every moment
    await runner.createIndices('contact', [
      new TableIndex({ name: 'UQ_contact_account_phone', columnNames: ['account_id', 'phone'], isUnique: true }),
      new TableIndex({ name: 'IDX_contact_account_id', columnNames: ['account_id', 'id'] }),
      new TableIndex({ name: 'IDX_contact_account_name', columnNames: ['account_id', 'search_name'] }),
      new TableIndex({ name: 'IDX_contact_account_email', columnNames: ['account_id', 'search_email'] }),
    ]);
    await runner.dropIndex('contact', 'IDX_contact_account_phone');

    await runner.query(`ALTER TABLE contact_group ADD COLUMN name_key ${mysql ? 'VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'VARCHAR(100)'} NULL`);
    await runner.query('ALTER TABLE contact_group ADD COLUMN contact_count INT NOT NULL DEFAULT 0');
    await runner.query(`ALTER TABLE contact_group ADD COLUMN updated_at DATETIME${mysql ? '(3)' : ''} NULL`);
    await runner.query(
      'UPDATE contact_group SET updated_at = created_at, contact_count = (SELECT COUNT(*) FROM contact_group_member m WHERE m.group_id = contact_group.id)',
    );
    await keyGroupNames(runner);
    await runner.createIndices('contact_group', [
      new TableIndex({ name: 'UQ_contact_group_account_name', columnNames: ['account_id', 'name_key'], isUnique: true }),
      new TableIndex({ name: 'IDX_contact_group_account_id', columnNames: ['account_id', 'id'] }),
    ]);
    await runner.dropIndex('contact_group', 'IDX_contact_group_account');

    await runner.createTable(
      new Table({
        name: 'opt_out',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          // entries made with a sandbox key apply to sandbox traffic only, and are listed to sandbox keys only
          c.flag('sandbox'),
          c.exact('phone', 16),
          c.exact('source', 12),
          c.exactText('keyword', 20, { isNullable: true }),
          c.id('sender_id', { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [
          { name: 'UQ_opt_out_account_phone', columnNames: ['account_id', 'sandbox', 'phone'], isUnique: true },
          { name: 'IDX_opt_out_account_id', columnNames: ['account_id', 'sandbox', 'id'] },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'contact_import',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.exact('status', 12),
          c.id('group_id', { isNullable: true }),
          c.exact('on_duplicate', 6),
          c.exact('default_country', 2, { isNullable: true }),
          c.exact('delimiter', 1, { isNullable: true }),
          // data rows already imported (a prefix of the file): a job taken up again goes on from there
          { name: 'position', type: 'int', default: 0 },
          { name: 'total_rows', type: 'int', default: 0 },
          { name: 'created', type: 'int', default: 0 },
          { name: 'updated', type: 'int', default: 0 },
          { name: 'duplicates', type: 'int', default: 0 },
          { name: 'invalid', type: 'int', default: 0 },
          { name: 'errors', type: mysql ? 'mediumtext' : 'text', isNullable: true },
          { name: 'attempts', type: 'int', default: 0 },
          // null once the job is finished
          c.time('available_at', { isNullable: true }),
          c.exact('claimed_by', 64, { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
          c.time('finished_at', { isNullable: true }),
        ],
        indices: [
          { name: 'IDX_contact_import_available', columnNames: ['available_at', 'id'] },
          { name: 'IDX_contact_import_account_id', columnNames: ['account_id', 'id'] },
        ],
      }),
    );

    // apart from its job, whose row is updated with every chunk imported: SQLite rewrites a row whole, blob included
    // (and keeps large rows in tables with a rowid)
    await runner.createTable(
      new Table({
        name: 'contact_import_file',
        columns: [c.id('import_id', { isPrimary: true }), { name: 'content', type: mysql ? 'mediumblob' : 'blob' }],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['contact_import_file', 'contact_import', 'opt_out']) await runner.dropTable(table, true);
    await runner.createIndex('contact_group', new TableIndex({ name: 'IDX_contact_group_account', columnNames: ['account_id'] }));
    await runner.dropIndex('contact_group', 'UQ_contact_group_account_name');
    await runner.dropIndex('contact_group', 'IDX_contact_group_account_id');
    for (const column of ['name_key', 'contact_count', 'updated_at']) await runner.query(`ALTER TABLE contact_group DROP COLUMN ${column}`);
    await runner.createIndex('contact', new TableIndex({ name: 'IDX_contact_account_phone', columnNames: ['account_id', 'phone'] }));
    for (const index of ['UQ_contact_account_phone', 'IDX_contact_account_id', 'IDX_contact_account_name', 'IDX_contact_account_email']) {
      await runner.dropIndex('contact', index);
    }
    for (const column of ['country', 'language', 'attributes', 'search_name', 'search_email', 'updated_at']) {
      await runner.query(`ALTER TABLE contact DROP COLUMN ${column}`);
    }
  }
}

/** Contacts sharing a phone in one account become the oldest of them, which takes over their memberships. */
async function mergeContactsSharingAPhone(runner: QueryRunner): Promise<void> {
  const shared = (await runner.query(
    'SELECT account_id, phone FROM contact WHERE phone IS NOT NULL GROUP BY account_id, phone HAVING COUNT(*) > 1',
  )) as Array<{ account_id: string; phone: string }>;
  for (const { account_id, phone } of shared) {
    const ids = ((await runner.query('SELECT id FROM contact WHERE account_id = ? AND phone = ? ORDER BY id', [account_id, phone])) as Array<{ id: string }>).map(
      (row) => row.id,
    );
    const [kept, ...merged] = ids;
    for (const id of merged) {
      const groups = (await runner.query(
        'SELECT group_id, created_at FROM contact_group_member WHERE contact_id = ? AND group_id NOT IN (SELECT group_id FROM contact_group_member WHERE contact_id = ?)',
        [id, kept],
      )) as Array<{ group_id: string; created_at: string | Date }>;
      for (const group of groups) {
        await runner.query('INSERT INTO contact_group_member (group_id, contact_id, created_at) VALUES (?, ?, ?)', [group.group_id, kept, group.created_at]);
      }
      await runner.query('DELETE FROM contact_group_member WHERE contact_id = ?', [id]);
      await runner.query('DELETE FROM contact WHERE id = ?', [id]);
    }
  }
  if (shared.length > 0) {
    await runner.query(
      'UPDATE contact_group SET contact_count = (SELECT COUNT(*) FROM contact_group_member m WHERE m.group_id = contact_group.id)',
    );
  }
}

/** Fills each group's name key (its name, case folded); a name an older group of the account already has gets a number. */
async function keyGroupNames(runner: QueryRunner): Promise<void> {
  const groups = (await runner.query('SELECT id, account_id, name FROM contact_group ORDER BY id')) as Array<{ id: string; account_id: string; name: string }>;
  const taken = new Set<string>();
  for (const group of groups) {
    let name = group.name.slice(0, 100);
    for (let n = 2; taken.has(`${group.account_id} ${groupNameKey(name)}`); n++) name = `${group.name.slice(0, 90)} (${n})`;
    taken.add(`${group.account_id} ${groupNameKey(name)}`);
    await runner.query('UPDATE contact_group SET name = ?, name_key = ? WHERE id = ?', [name, groupNameKey(name), group.id]);
  }
}

/** The migration's own copies of the rules, so that it keeps meaning what it meant when it ran. */
const groupNameKey = (name: string): string => name.normalize('NFC').toLowerCase();
const contactSearchKey = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .slice(0, 100);
