import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { validateAs } from '../common/validation/request-validation.pipe.js';
import { smsConfig, type SmsConfig } from '../config/sms.config.js';
import { nextOpening, type DeliveryWindow } from './delivery-window.js';
import { DeliveryWindowDto } from './dto/delivery-window.dto.js';

/** `send_at` up to this far ahead sends now. */
const IMMEDIATE_MS = 60_000;
const DAY_MS = 86_400_000;

/** When a send's messages are due, the same rules for POST /sms/send and campaigns (SPEC-2 §1.1). */
@Injectable()
export class SendSchedule {
  constructor(@Inject(smsConfig.KEY) private readonly config: SmsConfig) {}

  /** When messages asked for at `sendAt` are due: now up to a minute ahead; 400 beyond `SMS_MAX_SCHEDULE_DAYS`. */
  dueAt(sendAt: Date | null, now: Date): Date {
    if (sendAt === null) return now;
    if (sendAt.getTime() > now.getTime() + this.config.maxScheduleDays * DAY_MS) {
      throw ApiError.invalidField('send_at', `doit être au plus dans ${this.config.maxScheduleDays} jours`);
    }
    return sendAt.getTime() > now.getTime() + IMMEDIATE_MS ? sendAt : now;
  }

  /** `dueAt`, held until the delivery window (checked as `deliveryWindow` does) next opens. */
  dueWithin(sendAt: Date | null, window: object | undefined, now: Date): Date {
    const due = this.dueAt(sendAt, now);
    return window === undefined ? due : nextOpening(this.deliveryWindow(window), due);
  }

  /** A delivery window checked field by field (400 `delivery_window.<field>: …`). */
  deliveryWindow(raw: object): DeliveryWindow {
    const { dto: window, errors } = validateAs(DeliveryWindowDto, raw as Record<string, unknown>, 'delivery_window.');
    if (errors.length > 0) throw ApiError.validation(errors);
    return window as DeliveryWindow;
  }
}
