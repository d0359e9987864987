import Sqlite from 'better-sqlite3';
import { ApiError } from '../errors/api-error.js';
import { newId, uuidV7Floor } from '../ids.js';
import { validateAs } from '../validation/request-validation.pipe.js';
import { encodeCursor, filtersHash } from './cursor.js';
import { CreatedRangeQueryDto, ListQueryDto } from './list-query.dto.js';
import { createdRange, Page } from './page.js';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as ApiError).envelope;
  }
  return null;
};
const INVALID_CURSOR = { status: 400, message: 'erreur_de_validation', errors: ['cursor: curseur invalide'] };

describe(Page.name, () => {
  const rowsOf = (keys: string[]) => keys.map((id) => ({ id }));

  it('asks for 20 items by default, and for the limit given', () => {
    expect(Page.of({}, {}).limit).toBe(20);
    expect(Page.of({ limit: '100' }, {}).limit).toBe(100);
  });

  it('builds the keyset query: the conditions, then past the cursor, newest first, one row more than the page', () => {
    const first = Page.of({ limit: '2' }, { status: 'sent' });
    expect(first.query('SELECT * FROM item', 'id', ['account_id = ?', 'status = ?'], ['a', 'sent'])).toEqual([
      'SELECT * FROM item WHERE account_id = ? AND status = ? ORDER BY id DESC LIMIT 3',
      ['a', 'sent'],
    ]);

    const { next_cursor } = first.answer(rowsOf(['k3', 'k2', 'k1']).map((row, i) => ({ id: newIdAt(3 - i) })), (row) => row.id, (row) => row);
    const next = Page.of({ limit: '2', cursor: next_cursor! }, { status: 'sent' });
    const [text, params] = next.query('SELECT * FROM item', 'id', ['account_id = ?'], ['a']);
    expect(text).toBe('SELECT * FROM item WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT 3');
    expect(params).toEqual(['a', next.after]);
  });

  it('answers the page, a cursor to the next one and has_more, from limit + 1 rows', () => {
    const page = Page.of({ limit: '2' }, {});
    const keys = [newIdAt(3), newIdAt(2), newIdAt(1)];

    const answer = page.answer(rowsOf(keys), (row) => row.id, (row) => row.id.slice(0, 8));

    expect(answer.items).toEqual([keys[0]!.slice(0, 8), keys[1]!.slice(0, 8)]);
    expect(answer.has_more).toBe(true);
    expect(Page.of({ limit: '2', cursor: answer.next_cursor! }, {}).after).toBe(keys[1]);
  });

  it('answers the last page without a cursor', () => {
    expect(Page.of({ limit: '2' }, {}).answer(rowsOf([newId()]), (row) => row.id, (row) => row)).toEqual({
      items: [expect.any(Object)],
      next_cursor: null,
      has_more: false,
    });
  });

  it('binds the cursor to its filters: other filters, or none, refuse it', () => {
    const cursor = encodeCursor(newId(), filtersHash({ status: 'sent' }));

    expect(Page.of({ cursor }, { status: 'sent' }).after).not.toBeNull();
    expect(refusal(() => Page.of({ cursor }, { status: 'failed' }))).toEqual(INVALID_CURSOR);
    expect(refusal(() => Page.of({ cursor }, {}))).toEqual(INVALID_CURSOR);
  });

  it('ignores filters left undefined, and the order of the filters', () => {
    const cursor = encodeCursor(newId(), filtersHash({ a: '1', b: '2', c: undefined }));
    expect(Page.of({ cursor }, { b: '2', a: '1' }).after).not.toBeNull();
  });

  it.each([
    ['not base64url', 'not a cursor!'],
    ['not JSON', Buffer.from('{id:').toString('base64url')],
    ['JSON but not an object', Buffer.from('42').toString('base64url')],
    ['no id', Buffer.from(JSON.stringify({ f: filtersHash({}) })).toString('base64url')],
    ['an id that is not a key', encodeCursor("' OR 1=1 --", filtersHash({}))],
    ['an integer key for a uuid list', encodeCursor('12345', filtersHash({}))],
  ])('refuses a cursor that is %s', (_, cursor) => {
    expect(refusal(() => Page.of({ cursor }, {}))).toEqual(INVALID_CURSOR);
  });

  it('keys integer lists with integers, bound as numbers', () => {
    const page = Page.of({ limit: '1' }, {}, 'integer');
    const { next_cursor } = page.answer([{ id: 42 }, { id: 41 }], (row) => row.id, (row) => row);
    const next = Page.of({ limit: '1', cursor: next_cursor! }, {}, 'integer');

    expect(next.query('SELECT * FROM ledger', 'id', [], [])).toEqual(['SELECT * FROM ledger WHERE id < ? ORDER BY id DESC LIMIT 2', [42]]);
    expect(refusal(() => Page.of({ cursor: encodeCursor(newId(), filtersHash({})) }, {}, 'integer'))).toEqual(INVALID_CURSOR);
  });
});

describe('keyset paging on SQLite', () => {
  let db: Sqlite.Database;
  const insert = (count: number) => {
    const ids = Array.from({ length: count }, () => newId());
    const statement = db.prepare('INSERT INTO item (id, account_id) VALUES (?, ?)');
    for (const id of ids) statement.run(id, 'a');
    return ids;
  };
  const read = (page: Page) => {
    const [text, params] = page.query('SELECT id FROM item', 'id', ['account_id = ?'], ['a']);
    return page.answer(db.prepare(text).all(...params) as Array<{ id: string }>, (row) => row.id, (row) => row.id);
  };

  beforeEach(() => {
    db = new Sqlite(':memory:');
    db.exec('CREATE TABLE item (id TEXT PRIMARY KEY, account_id TEXT NOT NULL)');
  });
  afterEach(() => db.close());

  it('walks every row that existed at the start exactly once, newest first, while newer rows are inserted', () => {
    const existing = insert(257);
    const seen: string[] = [];
    let page = Page.of({ limit: '20' }, {});
    for (;;) {
      const answer = read(page);
      seen.push(...answer.items);
      insert(7);
      if (!answer.has_more) break;
      page = Page.of({ limit: '20', cursor: answer.next_cursor! }, {});
    }

    expect(seen).toEqual([...existing].reverse());
  });
});

describe(createdRange.name, () => {
  it('turns a creation-time range into a range of UUID v7 keys', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    const to = new Date('2026-11-02T00:00:00Z');
    expect(createdRange('m.id', from, to)).toEqual({ conditions: ['m.id >= ?', 'm.id < ?'], params: [uuidV7Floor(from), uuidV7Floor(to)] });
    expect(createdRange('id', undefined, undefined)).toEqual({ conditions: [], params: [] });
  });

  it('selects exactly the ids made within the range', () => {
    // later than any id made before in this process: ids of one process never go back in time
    const from = new Date('2040-11-01T00:00:00Z');
    const to = new Date('2040-11-02T00:00:00Z');
    const inside = newId(new Date('2040-11-01T12:00:00Z'));
    const { params } = createdRange('id', from, to);
    expect(inside >= params[0]! && inside < params[1]!).toBe(true);
    expect(newId(to) >= params[1]!).toBe(true);
  });
});

describe('list query validation', () => {
  it.each([
    [{ limit: '0' }, ['limit: doit être un entier compris entre 1 et 100']],
    [{ limit: '101' }, ['limit: doit être un entier compris entre 1 et 100']],
    [{ limit: '2.5' }, ['limit: doit être un entier compris entre 1 et 100']],
    [{ limit: ['1', '2'] }, ['limit: doit être un entier compris entre 1 et 100']],
    [{ cursor: 'x'.repeat(513) }, ['cursor: curseur invalide']],
    [{ limit: '1', cursor: 'abc', other: 'x' }, ['other: champ inconnu']],
  ])('checks %j', (query, errors) => {
    expect(validateAs(ListQueryDto, query).errors).toEqual(errors);
  });

  it('wants creation dates with a zone', () => {
    expect(validateAs(CreatedRangeQueryDto, { created_from: '2026-11-01T00:00:00', created_to: '2026-11-02' }).errors).toEqual([
      'created_from: date ISO 8601 avec fuseau attendue',
      'created_to: date ISO 8601 avec fuseau attendue',
    ]);
    expect(validateAs(CreatedRangeQueryDto, { created_from: '2026-11-01T00:00:00Z', created_to: '2026-11-02T01:00:00+01:00' }).errors).toEqual([]);
  });
});

let offset = 0;
/** Ids a few milliseconds apart, in the order of `n`. */
function newIdAt(n: number): string {
  return newId(new Date(Date.UTC(2026, 10, 1) + n * 1000 + offset++));
}
