/**
 * Billing periods on calendar rules, all in UTC. A subscription's periods are counted from its
 * anchor (the first paid period's start): boundary n is computed from the anchor directly, never
 * by chaining from the previous boundary, so a month-end anchor keeps its day (Jan 31 → Feb 28
 * or 29 → Mar 31 → Apr 30) and a Feb 29 yearly anchor comes back to Feb 29 in leap years.
 * Daily and weekly periods are exact multiples of 24 hours.
 */

export const INTERVALS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The event body's words for the intervals (the spec's example is `month`). */
export const EVENT_INTERVAL: Record<Interval, string> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
};

const DAY_MS = 86_400_000;

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `anchor` moved by `months` calendar months, its day clamped to the target month's length. */
export function addMonths(anchor: Date, months: number): Date {
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The `n`-th period boundary from `anchor` (n = 0 is the anchor itself). */
export function periodBoundary(anchor: Date, interval: Interval, intervalCount: number, n: number): Date {
  const steps = n * intervalCount;
  switch (interval) {
    case 'daily':
      return new Date(anchor.getTime() + steps * DAY_MS);
    case 'weekly':
      return new Date(anchor.getTime() + steps * 7 * DAY_MS);
    case 'monthly':
      return addMonths(anchor, steps);
    case 'yearly':
      return addMonths(anchor, steps * 12);
  }
}

export interface Period {
  index: number;
  start: Date;
  end: Date;
}

/** Period `index` (0 is the first) of a schedule anchored at `anchor`. */
export function periodAt(anchor: Date, interval: Interval, intervalCount: number, index: number): Period {
  return {
    index,
    start: periodBoundary(anchor, interval, intervalCount, index),
    end: periodBoundary(anchor, interval, intervalCount, index + 1),
  };
}

/** The period that contains `at` (start ≤ at < end); `at` before the anchor gives period 0. */
export function periodContaining(anchor: Date, interval: Interval, intervalCount: number, at: Date): Period {
  if (at.getTime() < anchor.getTime()) return periodAt(anchor, interval, intervalCount, 0);
  // A close first guess from the average period length, then exact steps.
  const approxMs =
    { daily: DAY_MS, weekly: 7 * DAY_MS, monthly: 30.436875 * DAY_MS, yearly: 365.2425 * DAY_MS }[interval] *
    intervalCount;
  let index = Math.max(0, Math.floor((at.getTime() - anchor.getTime()) / approxMs) - 1);
  while (periodBoundary(anchor, interval, intervalCount, index).getTime() > at.getTime()) index--;
  while (periodBoundary(anchor, interval, intervalCount, index + 1).getTime() <= at.getTime()) index++;
  return periodAt(anchor, interval, intervalCount, index);
}

/** When a trial of `days` days started at `start` ends (exact days). */
export function trialEnd(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}
