import { Injectable } from '@nestjs/common';

/** The application's time source; tests replace it to move time without sleeping. */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
