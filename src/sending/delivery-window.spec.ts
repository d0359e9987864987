import { nextOpening, type DeliveryWindow, type Weekday } from './delivery-window.js';

const EVERY_DAY: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKDAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

const window = (from: string, to: string, timezone: string, days: Weekday[] = EVERY_DAY): DeliveryWindow => ({ days, from, to, timezone });
const opening = (w: DeliveryWindow, at: string) => nextOpening(w, new Date(at)).toISOString();

describe('nextOpening', () => {
  describe('a window within one day', () => {
    // Monday 2 March 2026; Paris is UTC+1 in winter
    const office = window('08:00', '20:00', 'Europe/Paris', WEEKDAYS);

    it('keeps an instant inside the window, its opening minute included', () => {
      expect(opening(office, '2026-03-02T10:15:30.500Z')).toBe('2026-03-02T10:15:30.500Z');
      expect(opening(office, '2026-03-02T07:00:00.000Z')).toBe('2026-03-02T07:00:00.000Z');
    });

    it('waits until the opening the same day when it is too early', () => {
      expect(opening(office, '2026-03-02T05:59:00.000Z')).toBe('2026-03-02T07:00:00.000Z');
    });

    it('waits until the next day when the window has closed, its closing minute included', () => {
      expect(opening(office, '2026-03-02T19:00:00.000Z')).toBe('2026-03-03T07:00:00.000Z');
      expect(opening(office, '2026-03-02T22:30:00.000Z')).toBe('2026-03-03T07:00:00.000Z');
    });

    it('skips the days the window does not name: Friday evening waits for Monday', () => {
      expect(opening(office, '2026-03-06T19:30:00.000Z')).toBe('2026-03-09T07:00:00.000Z');
    });

    it('reads the days in the window zone, not in UTC: Sunday 23:30 UTC is already Monday in Paris', () => {
      const mondayNight = window('00:00', '02:00', 'Europe/Paris', ['mon']);
      expect(opening(mondayNight, '2026-03-01T23:30:00.000Z')).toBe('2026-03-01T23:30:00.000Z');
    });

    it('waits almost a week for a window of one day that has just closed', () => {
      expect(opening(window('08:00', '09:00', 'UTC', ['mon']), '2026-03-02T09:00:00.000Z')).toBe('2026-03-09T08:00:00.000Z');
    });
  });

  describe('a window that runs past midnight', () => {
    const night = window('22:00', '06:00', 'UTC', ['fri']);

    it('is open after its opening and, the next morning, until it closes', () => {
      expect(opening(night, '2026-03-06T23:00:00.000Z')).toBe('2026-03-06T23:00:00.000Z');
      expect(opening(night, '2026-03-07T05:59:00.000Z')).toBe('2026-03-07T05:59:00.000Z');
    });

    it('belongs to the day it opens: Saturday evening is closed, and waits for the next Friday', () => {
      expect(opening(night, '2026-03-07T06:00:00.000Z')).toBe('2026-03-13T22:00:00.000Z');
      expect(opening(night, '2026-03-07T23:00:00.000Z')).toBe('2026-03-13T22:00:00.000Z');
    });

    it('opens in the evening when called during the day', () => {
      expect(opening(night, '2026-03-06T12:00:00.000Z')).toBe('2026-03-06T22:00:00.000Z');
    });
  });

  describe('across DST changes, in wall-clock time', () => {
    it('Europe/Paris, spring forward (29 March 2026): 08:00 the morning after is 06:00 UTC, not 07:00', () => {
      const office = window('08:00', '20:00', 'Europe/Paris');
      expect(opening(office, '2026-03-28T20:00:00.000Z')).toBe('2026-03-29T06:00:00.000Z');
      expect(opening(office, '2026-03-28T06:30:00.000Z')).toBe('2026-03-28T07:00:00.000Z');
    });

    it('Europe/Paris, fall back (25 October 2026): 08:00 the morning after is 07:00 UTC, not 06:00', () => {
      const office = window('08:00', '20:00', 'Europe/Paris');
      expect(opening(office, '2026-10-24T19:00:00.000Z')).toBe('2026-10-25T07:00:00.000Z');
      expect(opening(office, '2026-10-24T05:30:00.000Z')).toBe('2026-10-24T06:00:00.000Z');
    });

    it('Europe/Paris: an opening skipped by the spring-forward gap opens when the gap ends, 03:00 local', () => {
      expect(opening(window('02:30', '05:00', 'Europe/Paris'), '2026-03-28T23:00:00.000Z')).toBe('2026-03-29T01:00:00.000Z');
    });

    it('Europe/Paris: a window wholly inside the gap does not open that day', () => {
      expect(opening(window('02:00', '02:30', 'Europe/Paris'), '2026-03-28T23:00:00.000Z')).toBe('2026-03-30T00:00:00.000Z');
    });

    it('Europe/Paris: a window closing inside the gap closes when the gap ends', () => {
      const night = window('22:00', '02:30', 'Europe/Paris');
      expect(opening(night, '2026-03-29T00:59:00.000Z')).toBe('2026-03-29T00:59:00.000Z');
      expect(opening(night, '2026-03-29T01:00:00.000Z')).toBe('2026-03-29T20:00:00.000Z');
    });

    it('Europe/Paris: an opening in the repeated hour of the fall back is its first occurrence', () => {
      expect(opening(window('02:30', '05:00', 'Europe/Paris'), '2026-10-24T22:00:00.000Z')).toBe('2026-10-25T00:30:00.000Z');
    });

    it('Europe/Paris: a window that closes in the repeated hour closes at its first occurrence', () => {
      const night = window('22:00', '02:30', 'Europe/Paris');
      expect(opening(night, '2026-10-25T00:29:00.000Z')).toBe('2026-10-25T00:29:00.000Z');
      expect(opening(night, '2026-10-25T01:10:00.000Z')).toBe('2026-10-25T21:00:00.000Z');
    });

    it('America/New_York, spring forward (8 March 2026): 09:00 is 13:00 UTC after, 14:00 UTC before', () => {
      const office = window('09:00', '17:00', 'America/New_York', WEEKDAYS);
      expect(opening(office, '2026-03-06T23:00:00.000Z')).toBe('2026-03-09T13:00:00.000Z');
      expect(opening(office, '2026-03-05T23:00:00.000Z')).toBe('2026-03-06T14:00:00.000Z');
    });

    it('America/New_York: an opening at 02:30 on the spring-forward day opens at 03:00 EDT', () => {
      expect(opening(window('02:30', '04:00', 'America/New_York'), '2026-03-08T05:00:00.000Z')).toBe('2026-03-08T07:00:00.000Z');
    });

    it('America/New_York, fall back (1 November 2026): 09:00 is 14:00 UTC after', () => {
      const office = window('09:00', '17:00', 'America/New_York');
      expect(opening(office, '2026-10-31T22:00:00.000Z')).toBe('2026-11-01T14:00:00.000Z');
    });
  });

  describe('a half-hour zone without DST', () => {
    const office = window('09:00', '18:00', 'Asia/Kolkata', WEEKDAYS);

    it('opens at 09:00 IST, 03:30 UTC', () => {
      expect(opening(office, '2026-03-02T00:00:00.000Z')).toBe('2026-03-02T03:30:00.000Z');
    });

    it('is open until 18:00 IST, 12:30 UTC, then waits for the next day', () => {
      expect(opening(office, '2026-03-02T12:29:00.000Z')).toBe('2026-03-02T12:29:00.000Z');
      expect(opening(office, '2026-03-02T12:30:00.000Z')).toBe('2026-03-03T03:30:00.000Z');
    });

    it('reads the weekday in IST: Friday 19:00 UTC is Saturday 00:30, so Monday 09:00', () => {
      expect(opening(office, '2026-03-06T19:00:00.000Z')).toBe('2026-03-09T03:30:00.000Z');
    });
  });
});
