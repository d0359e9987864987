import { toAmount, toHundredths } from './money.js';

describe('toAmount', () => {
  it.each([
    [100000, 1000],
    [250, 2.5],
    [1005, 10.05],
    [0, 0],
    [-325, -3.25],
  ])('shows %i hundredths as %d', (hundredths, amount) => {
    expect(toAmount(hundredths)).toBe(amount);
  });
});

describe('toHundredths', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['10.05', 1005],
    ['0.01', 1],
    [' 7 ', 700],
    [10.5, 1050],
    [1000, 100000],
    ['-3.25', -325],
    [-0.5, -50],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i hundredths', (amount, hundredths) => {
    expect(toHundredths(amount)).toBe(hundredths);
  });

  it.each([
    ['more than two decimals', '10.123'],
    ['a float with more than two decimals', 0.1 + 0.2],
    ['letters', 'abc'],
    ['trailing letters', '12abc'],
    ['an empty string', ''],
    ['exponent notation', '1e3'],
    ['a bare decimal point', '.5'],
    ['a trailing decimal point', '1.'],
    ['a plus sign', '+5'],
    ['a comma', '1,50'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a value past the safe integers', '90071992547409.92'],
    ['a huge string', '99999999999999999999'],
    ['a huge number', 1e21],
  ])('refuses %s', (_case, amount) => {
    expect(toHundredths(amount)).toBeNull();
  });
});
