import {
  afterChargeFailure,
  afterChargeSuccess,
  applyDisputeStage,
  cancelDecision,
  isBillable,
  isRescuable,
  MAX_ATTEMPTS,
  SUBSCRIPTION_STATUSES,
  type DisputeSnapshot,
} from './subscription-lifecycle.js';

const at = new Date('2027-03-01T00:00:00.000Z');
const plus = (days: number) => new Date(at.getTime() + days * 86_400_000);

describe('disposition table', () => {
  test('retry: past_due, retried on a widening schedule (1 d, 3 d, 5 d), then unpaid when exhausted', () => {
    expect(MAX_ATTEMPTS).toBe(4);
    expect(afterChargeFailure('retry', 1, at)).toEqual({ status: 'past_due', nextRetryAt: plus(1) });
    expect(afterChargeFailure('retry', 2, at)).toEqual({ status: 'past_due', nextRetryAt: plus(3) });
    expect(afterChargeFailure('retry', 3, at)).toEqual({ status: 'past_due', nextRetryAt: plus(5) });
    expect(afterChargeFailure('retry', 4, at)).toEqual({ status: 'unpaid', nextRetryAt: null });
  });

  test('action_required: stops retrying', () => {
    expect(afterChargeFailure('action_required', 1, at)).toEqual({ status: 'action_required', nextRetryAt: null });
    expect(afterChargeFailure('action_required', 3, at)).toEqual({ status: 'action_required', nextRetryAt: null });
  });

  test('terminal: unpaid at once, never retried', () => {
    expect(afterChargeFailure('terminal', 1, at)).toEqual({ status: 'unpaid', nextRetryAt: null });
  });
});

describe('state table', () => {
  test('a paid cycle makes the subscription active; a new card that rescues a failing one also resumes it', () => {
    expect(afterChargeSuccess('trialing', false)).toEqual({ status: 'active', events: ['subscription.renewed'] });
    expect(afterChargeSuccess('past_due', false)).toEqual({ status: 'active', events: ['subscription.renewed'] });
    expect(afterChargeSuccess('past_due', true)).toEqual({
      status: 'active',
      events: ['subscription.resumed', 'subscription.renewed'],
    });
    expect(afterChargeSuccess('action_required', true)).toEqual({
      status: 'active',
      events: ['subscription.resumed', 'subscription.renewed'],
    });
  });

  test('only trialing, active and past_due are billed by the sweep; past_due and action_required are rescued by a new card', () => {
    expect(SUBSCRIPTION_STATUSES.filter(isBillable)).toEqual(['trialing', 'active', 'past_due']);
    expect(SUBSCRIPTION_STATUSES.filter(isRescuable)).toEqual(['past_due', 'action_required']);
  });

  test('cancel: any status but cancelled, now or at the period end', () => {
    for (const s of SUBSCRIPTION_STATUSES.filter((s) => s !== 'cancelled')) {
      expect(cancelDecision(s, false)).toEqual({ ok: true, endsNow: true });
      expect(cancelDecision(s, true)).toEqual({ ok: true, endsNow: false });
    }
    expect(cancelDecision('cancelled', false)).toEqual({ ok: false });
  });
});

describe('dispute-stage table', () => {
  const active: DisputeSnapshot = {
    status: 'active',
    nextChargeAt: plus(30),
    priorStatus: null,
    priorNextChargeAt: null,
  };
  const pastDue: DisputeSnapshot = {
    status: 'past_due',
    nextChargeAt: plus(3),
    priorStatus: null,
    priorNextChargeAt: null,
  };

  test('notification: no change, billing_held false', () => {
    expect(applyDisputeStage(active, 'notification')).toEqual({ ...active, billingHeld: false });
  });

  test('confirmed: disputed, billing held, prior status and next charge kept; again is a no-op', () => {
    const held = applyDisputeStage(active, 'confirmed');
    expect(held).toEqual({
      status: 'disputed',
      nextChargeAt: null,
      priorStatus: 'active',
      priorNextChargeAt: plus(30),
      billingHeld: true,
    });
    expect(applyDisputeStage(held, 'confirmed')).toEqual(held);
    expect(applyDisputeStage(held, 'notification').billingHeld).toBe(true);
  });

  test('reversed: exactly the prior status, including a mid-retry past_due with its next retry', () => {
    const held = applyDisputeStage(pastDue, 'confirmed');
    expect(applyDisputeStage(held, 'reversed')).toEqual({ ...pastDue, billingHeld: false });
    for (const prior of ['trialing', 'active', 'action_required', 'unpaid'] as const) {
      const h = applyDisputeStage(
        { status: prior, nextChargeAt: null, priorStatus: null, priorNextChargeAt: null },
        'confirmed',
      );
      expect(applyDisputeStage(h, 'reversed')).toMatchObject({ status: prior, billingHeld: false, priorStatus: null });
    }
  });

  test('reversed without a hold changes nothing; a cancelled subscription stays cancelled', () => {
    expect(applyDisputeStage(active, 'reversed')).toEqual({ ...active, billingHeld: false });
    const cancelled: DisputeSnapshot = {
      status: 'cancelled',
      nextChargeAt: null,
      priorStatus: null,
      priorNextChargeAt: null,
    };
    expect(applyDisputeStage(cancelled, 'confirmed')).toEqual({ ...cancelled, billingHeld: false });
  });
});
