import { disputeStateOf, type ChargebackEventCode, type ChargebackNotification } from './dispute-stage.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const n = (
  eventCode: ChargebackEventCode,
  day: number,
  extra: Partial<ChargebackNotification> = {},
): ChargebackNotification => ({
  eventCode,
  eventDate: at(day),
  pspReference: 'DSP1',
  amount: 1500,
  currency: 'usd',
  reason: null,
  defensePeriodEndsAt: null,
  ...extra,
});

/** Every ordering of `items`. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

test('no notification, no dispute', () => {
  expect(disputeStateOf([])).toBeNull();
});

test('the latest notification by event date decides the stage, whatever order they are given in', () => {
  const history = [
    n('NOTIFICATION_OF_CHARGEBACK', 1),
    n('CHARGEBACK', 2, { amount: 1200, reason: 'Fraud' }),
    n('CHARGEBACK_REVERSED', 3),
    n('SECOND_CHARGEBACK', 4),
  ];
  for (const order of permutations(history))
    expect(disputeStateOf(order)).toMatchObject({ stage: 'confirmed', eventCode: 'SECOND_CHARGEBACK' });
  for (const order of permutations(history.slice(0, 3)))
    expect(disputeStateOf(order)).toMatchObject({ stage: 'reversed', eventCode: 'CHARGEBACK_REVERSED' });
  expect(
    disputeStateOf([n('CHARGEBACK', 2, { amount: 1200, reason: 'Fraud' }), n('NOTIFICATION_OF_CHARGEBACK', 1)]),
  ).toMatchObject({
    stage: 'confirmed',
    amount: 1200,
    reason: 'Fraud',
  });
});

test('on one event date the stage rank breaks the tie: the dispute moves forward', () => {
  for (const order of permutations([
    n('NOTIFICATION_OF_CHARGEBACK', 5),
    n('CHARGEBACK', 5),
    n('CHARGEBACK_REVERSED', 5),
  ])) {
    expect(disputeStateOf(order)?.stage).toBe('reversed');
  }
  expect(disputeStateOf([n('SECOND_CHARGEBACK', 5), n('CHARGEBACK_REVERSED', 5)])?.stage).toBe('confirmed');
});

test('the defence deadline is the latest one sent, kept when later notifications send none', () => {
  const state = disputeStateOf([
    n('CHARGEBACK', 2, { defensePeriodEndsAt: '2026-01-22T10:00:00+01:00' }),
    n('NOTIFICATION_OF_CHARGEBACK', 1, { defensePeriodEndsAt: '2026-01-20T00:00:00Z' }),
    n('CHARGEBACK_REVERSED', 3),
  ]);
  expect(state?.defenseDueAt?.toISOString()).toBe('2026-01-22T09:00:00.000Z');
  expect(disputeStateOf([n('CHARGEBACK', 2, { defensePeriodEndsAt: 'not a date' })])?.defenseDueAt).toBeNull();
});

test('defendable is what the latest notification that said so said, null when none did', () => {
  const noc = n('NOTIFICATION_OF_CHARGEBACK', 1, { defendable: 'true' });
  const chargeback = n('CHARGEBACK', 2, { defendable: 'false' });
  for (const order of permutations([noc, chargeback, n('CHARGEBACK_REVERSED', 3)]))
    expect(disputeStateOf(order)?.defendable).toBe(false);
  expect(disputeStateOf([noc, n('CHARGEBACK', 2)])?.defendable).toBe(true);
  expect(disputeStateOf([n('CHARGEBACK', 2)])?.defendable).toBeNull();
});
