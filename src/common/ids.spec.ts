import { version } from 'uuid';
import { isUlid, isUuid, newId, newLot, uuidV7Floor } from './ids.js';

describe('newId', () => {
  it('makes distinct UUID v7s that sort in the order they were made, within a millisecond too', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(ids.every((id) => isUuid(id) && version(id) === 7)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts at its millisecond', () => {
    const before = new Date();
    const id = newId();
    expect(id >= uuidV7Floor(before)).toBe(true);
    expect(id < uuidV7Floor(new Date(Date.now() + 1))).toBe(true);
  });

  it('starts at the millisecond it is given, so that a range of ids is a range of creation times', () => {
    const at = new Date(Date.now() + 60_000);
    const id = newId(at);
    expect(id >= uuidV7Floor(at)).toBe(true);
    expect(id < uuidV7Floor(new Date(at.getTime() + 1))).toBe(true);
  });
});

describe('newLot', () => {
  it('makes distinct ULIDs', () => {
    const lots = Array.from({ length: 5_000 }, () => newLot());
    expect(lots.every(isUlid)).toBe(true);
    expect(new Set(lots).size).toBe(lots.length);
  });
});
