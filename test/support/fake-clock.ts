import { Clock } from '../../src/common/clock.js';

/** The application clock under test control: real time plus an offset that tests move forward. */
export class FakeClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
