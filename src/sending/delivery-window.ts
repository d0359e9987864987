import { DateTime } from 'luxon';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Days and hours, in an IANA zone, outside which messages are held (SPEC-2 §1.1). */
export interface DeliveryWindow {
  days: Weekday[];
  /** `HH:MM`, local time; a window whose `to` is not after its `from` runs past midnight. */
  from: string;
  to: string;
  timezone: string;
}

export const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const isClockTime = (value: unknown): value is string => typeof value === 'string' && CLOCK_TIME.test(value);

/**
 * The first instant at or after `at` inside the window: `at` itself when the
 * window is open, else its next opening. Local times are read in the window's
 * zone on each day, so a window keeps its wall-clock hours across DST changes:
 * an opening or a closing in a spring-forward gap moves to the end of the gap
 * (a window wholly inside the gap does not open that day), and one in the hour
 * repeated by a fall back is its first occurrence.
 */
export function nextOpening(window: DeliveryWindow, at: Date): Date {
  const now = DateTime.fromJSDate(at, { zone: window.timezone });
  const days = new Set(window.days);
  const [from, to] = [minutes(window.from), minutes(window.to)];
  // from yesterday: a window that opened yesterday evening may still be open
  for (let offset = -1; offset <= 7; offset++) {
    const day = now.startOf('day').plus({ days: offset });
    if (!days.has(WEEKDAYS[day.weekday - 1])) continue;
    const opens = atMinutes(day, from);
    const closes = atMinutes(to > from ? day : day.plus({ days: 1 }), to);
    if (closes <= now || closes <= opens) continue;
    return (opens > now ? opens : now).toJSDate();
  }
  throw new Error('a delivery window has at least one day');
}

const minutes = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The first instant of `day` whose local time is at least `total` minutes past midnight. */
function atMinutes(day: DateTime, total: number): DateTime {
  const wanted = day.set({ hour: Math.floor(total / 60), minute: total % 60 });
  if (wanted.hour * 60 + wanted.minute === total) return wanted;
  // skipped by a spring-forward gap: Luxon moves it past the gap by the gap's length; go back to where the gap ends
  let first = wanted;
  while (first.minus({ minutes: 1 }).offset === wanted.offset) first = first.minus({ minutes: 1 });
  return first;
}
