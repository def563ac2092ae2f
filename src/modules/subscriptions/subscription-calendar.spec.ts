import fc from 'fast-check';
import {
  addMonths,
  periodAt,
  periodBoundary,
  periodContaining,
  trialEnd,
  type Interval,
} from './subscription-calendar.js';

const d = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const boundaries = (anchor: string, interval: Interval, count: number, n: number) =>
  Array.from({ length: n }, (_, i) => iso(periodBoundary(d(anchor), interval, count, i)));

test('monthly from Jan 31 bills Feb 28 (29 in a leap year), then Mar 31, Apr 30: from the anchor, not chained', () => {
  expect(boundaries('2027-01-31T10:00:00.000Z', 'monthly', 1, 5)).toEqual([
    '2027-01-31T10:00:00.000Z',
    '2027-02-28T10:00:00.000Z',
    '2027-03-31T10:00:00.000Z',
    '2027-04-30T10:00:00.000Z',
    '2027-05-31T10:00:00.000Z',
  ]);
  expect(boundaries('2028-01-31T00:00:00.000Z', 'monthly', 1, 3)).toEqual([
    '2028-01-31T00:00:00.000Z',
    '2028-02-29T00:00:00.000Z',
    '2028-03-31T00:00:00.000Z',
  ]);
});

test('monthly across a year end and with interval_count', () => {
  expect(boundaries('2026-11-30T08:30:00.000Z', 'monthly', 1, 4)).toEqual([
    '2026-11-30T08:30:00.000Z',
    '2026-12-30T08:30:00.000Z',
    '2027-01-30T08:30:00.000Z',
    '2027-02-28T08:30:00.000Z',
  ]);
  expect(boundaries('2026-08-31T00:00:00.000Z', 'monthly', 3, 4)).toEqual([
    '2026-08-31T00:00:00.000Z',
    '2026-11-30T00:00:00.000Z',
    '2027-02-28T00:00:00.000Z',
    '2027-05-31T00:00:00.000Z',
  ]);
});

test('yearly from Feb 29 is Feb 28 in common years and Feb 29 again in leap years', () => {
  expect(boundaries('2028-02-29T12:00:00.000Z', 'yearly', 1, 5)).toEqual([
    '2028-02-29T12:00:00.000Z',
    '2029-02-28T12:00:00.000Z',
    '2030-02-28T12:00:00.000Z',
    '2031-02-28T12:00:00.000Z',
    '2032-02-29T12:00:00.000Z',
  ]);
  expect(boundaries('2028-02-29T12:00:00.000Z', 'yearly', 2, 3)).toEqual([
    '2028-02-29T12:00:00.000Z',
    '2030-02-28T12:00:00.000Z',
    '2032-02-29T12:00:00.000Z',
  ]);
});

test('daily and weekly periods are exact (24 h and 7 × 24 h), interval_count multiplies', () => {
  expect(boundaries('2026-03-07T15:45:00.000Z', 'daily', 1, 3)).toEqual([
    '2026-03-07T15:45:00.000Z',
    '2026-03-08T15:45:00.000Z',
    '2026-03-09T15:45:00.000Z',
  ]);
  expect(boundaries('2026-03-07T15:45:00.000Z', 'daily', 10, 2)).toEqual([
    '2026-03-07T15:45:00.000Z',
    '2026-03-17T15:45:00.000Z',
  ]);
  expect(boundaries('2026-12-28T00:00:00.000Z', 'weekly', 1, 3)).toEqual([
    '2026-12-28T00:00:00.000Z',
    '2027-01-04T00:00:00.000Z',
    '2027-01-11T00:00:00.000Z',
  ]);
  expect(boundaries('2026-12-28T00:00:00.000Z', 'weekly', 2, 2)).toEqual([
    '2026-12-28T00:00:00.000Z',
    '2027-01-11T00:00:00.000Z',
  ]);
});

test('a period runs from one boundary to the next; periodContaining finds it (end exclusive)', () => {
  const anchor = d('2027-01-31T00:00:00.000Z');
  expect(periodAt(anchor, 'monthly', 1, 1)).toEqual({
    index: 1,
    start: d('2027-02-28T00:00:00.000Z'),
    end: d('2027-03-31T00:00:00.000Z'),
  });
  expect(periodContaining(anchor, 'monthly', 1, d('2027-03-30T23:59:59.999Z')).index).toBe(1);
  expect(periodContaining(anchor, 'monthly', 1, d('2027-03-31T00:00:00.000Z')).index).toBe(2);
  expect(periodContaining(anchor, 'monthly', 1, d('2026-01-01T00:00:00.000Z')).index).toBe(0);
});

test('periodContaining agrees with the boundaries for any anchor, interval and instant', () => {
  fc.assert(
    fc.property(
      fc.date({ min: d('2000-01-01T00:00:00Z'), max: d('2090-01-01T00:00:00Z'), noInvalidDate: true }),
      fc.constantFrom<Interval>('daily', 'weekly', 'monthly', 'yearly'),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 0, max: 200 * 86_400_000 * 10 }),
      (anchor, interval, count, offset) => {
        const at = new Date(anchor.getTime() + offset);
        const p = periodContaining(anchor, interval, count, at);
        expect(p.start.getTime()).toBeLessThanOrEqual(at.getTime());
        expect(p.end.getTime()).toBeGreaterThan(at.getTime());
        expect(p.start).toEqual(periodBoundary(anchor, interval, count, p.index));
      },
    ),
  );
});

test('a month boundary never drifts: boundary n equals n months from the anchor with the day clamped', () => {
  fc.assert(
    fc.property(
      fc.date({ min: d('2000-01-01T00:00:00Z'), max: d('2090-01-01T00:00:00Z'), noInvalidDate: true }),
      fc.integer({ min: 0, max: 400 }),
      (anchor, n) => {
        const b = addMonths(anchor, n);
        expect(b.getUTCDate()).toBe(
          Math.min(anchor.getUTCDate(), new Date(Date.UTC(b.getUTCFullYear(), b.getUTCMonth() + 1, 0)).getUTCDate()),
        );
        expect((b.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + b.getUTCMonth() - anchor.getUTCMonth()).toBe(n);
        expect(b.getUTCHours()).toBe(anchor.getUTCHours());
      },
    ),
  );
});

test('a trial of n days ends exactly n × 24 h later', () => {
  expect(iso(trialEnd(d('2026-11-23T10:00:00.000Z'), 14))).toBe('2026-12-07T10:00:00.000Z');
});
