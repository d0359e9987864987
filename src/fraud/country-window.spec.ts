import { CountryWindow } from './country-window.js';

const MINUTE = 60_000;
const at = (minute: number, seconds = 0) => new Date(minute * MINUTE + seconds * 1000);

describe(CountryWindow.name, () => {
  it('counts the sends of the current minute and the ten before it', () => {
    const window = CountryWindow.read({ minute: 100, counts: '1,2,0,0,0,0,0,0,0,0,3' }, at(100, 30));
    expect(window.total).toBe(6);
    expect(window.frees).toEqual(at(101));
  });

  it('lets the minutes older than the window go', () => {
    expect(CountryWindow.read({ minute: 100, counts: '1,2,0,0,0,0,0,0,0,0,3' }, at(101)).total).toBe(3);
    expect(CountryWindow.read({ minute: 100, counts: '1,2,0,0,0,0,0,0,0,0,3' }, at(111)).total).toBe(0);
  });

  it('adds a send to the current minute, shifted from the stored one', () => {
    expect(CountryWindow.read({ minute: 100, counts: '4,0,0,0,0,0,0,0,0,0,0' }, at(102)).withSends(1)).toEqual({ minute: 102, counts: '1,0,4,0,0,0,0,0,0,0,0' });
    expect(CountryWindow.read({ minute: null, counts: null }, at(7)).withSends(1)).toEqual({ minute: 7, counts: '1,0,0,0,0,0,0,0,0,0,0' });
  });

  it('adds the sends reserved with one to the current minute', () => {
    expect(CountryWindow.read({ minute: 100, counts: '4,0,0,0,0,0,0,0,0,0,0' }, at(100)).withSends(5)).toEqual({ minute: 100, counts: '9,0,0,0,0,0,0,0,0,0,0' });
  });

  it('counts a row written ahead of this clock as this minute', () => {
    expect(CountryWindow.read({ minute: 105, counts: '2,0,0,0,0,0,0,0,0,0,0' }, at(104)).total).toBe(2);
  });
});
