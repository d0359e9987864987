import { LONGEST_OTP_LIFETIME_MS } from '../otp/dto/otp-rules.js';

/** Conversion is judged on the codes of the last 24 hours. */
export const CONVERSION_WINDOW_MS = 24 * 3600_000;

/** Codes created in [`createdFrom`, `createdTo`) whose validity ended in (`endedAfter`, `endedBy`] (`endedAfter` null: any time up to `endedBy`). */
export interface CodeRange {
  createdFrom: Date;
  createdTo: Date;
  endedAfter: Date | null;
  endedBy: Date;
}

/**
 * What changes in the counts when the job counts to `now`, having counted to
 * `countedTo`. Counted as of a time T are the codes created in the 24 hours
 * before T whose validity ended by T: by then a code's outcome is final (a
 * code is verified within its validity or never). So the codes whose validity
 * ended since `countedTo` join the counts (created at most the longest
 * validity before it), and those created in the 24 hours before `countedTo`
 * but no longer in the 24 hours before `now` leave them. Null when there is
 * nothing to change (an instance whose clock is behind the last one's).
 */
export function conversionChanges(countedTo: Date | null, now: Date): { joining: CodeRange; leaving: CodeRange | null } | null {
  const windowFrom = new Date(now.getTime() - CONVERSION_WINDOW_MS);
  if (countedTo === null) return { joining: { createdFrom: windowFrom, createdTo: now, endedAfter: null, endedBy: now }, leaving: null };
  if (now <= countedTo) return null;
  const earliestEnding = new Date(countedTo.getTime() - LONGEST_OTP_LIFETIME_MS);
  const counted = new Date(countedTo.getTime() - CONVERSION_WINDOW_MS);
  return {
    joining: { createdFrom: earliestEnding > windowFrom ? earliestEnding : windowFrom, createdTo: now, endedAfter: countedTo, endedBy: now },
    leaving: counted < windowFrom ? { createdFrom: counted, createdTo: windowFrom < countedTo ? windowFrom : countedTo, endedAfter: null, endedBy: countedTo } : null,
  };
}
