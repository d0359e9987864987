import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { rule } from '../../common/validation/rule.js';
import { IsTimeZone } from '../../common/validation/shared-rules.js';
import { CLOCK_TIME, isClockTime, WEEKDAYS, type Weekday } from '../delivery-window.js';

const IsWeekdays = rule(
  'isWeekdays',
  (value) =>
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= WEEKDAYS.length &&
    new Set(value).size === value.length &&
    value.every((day) => (WEEKDAYS as readonly unknown[]).includes(day)),
  () => `doit être une liste de 1 à 7 jours distincts parmi ${WEEKDAYS.join(', ')}`,
  { minItems: 1, maxItems: WEEKDAYS.length, uniqueItems: true },
);
const IsClockTime = rule('isClockTime', isClockTime, () => 'heure HH:MM attendue (00:00 à 23:59)', { pattern: CLOCK_TIME.source });

const DiffersFromStart = rule(
  'differsFromStart',
  (value, args) => value !== (args.object as { from?: unknown }).from,
  () => 'doit différer de from',
);

/** When messages may be handed over; checked by the code that reads it, with the prefix `delivery_window.`. */
export class DeliveryWindowDto {
  @ApiProperty({ enum: WEEKDAYS, isArray: true, example: ['mon', 'tue', 'wed', 'thu', 'fri'] })
  @IsDefined({ message: Messages.required })
  @IsWeekdays()
  days!: Weekday[];

  @ApiProperty({ example: '08:00', description: 'Local opening time, HH:MM' })
  @IsDefined({ message: Messages.required })
  @IsClockTime()
  from!: string;

  @ApiProperty({ example: '20:00', description: 'Local closing time, HH:MM; earlier than `from` for a window that runs past midnight' })
  @IsDefined({ message: Messages.required })
  @IsClockTime()
  @DiffersFromStart()
  to!: string;

  @ApiProperty({ example: 'Africa/Abidjan', description: 'IANA time zone the hours are read in (DST followed)' })
  @IsDefined({ message: Messages.required })
  @IsTimeZone()
  timezone!: string;
}
