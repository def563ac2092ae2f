import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from '../../platform/db/sql.js';

/**
 * An account's sign-in attempts, each one statement on its `team_members` row (PostgreSQL's row
 * lock orders concurrent ones), so that no amount of concurrency checks more than
 * `LOCK_AFTER_FAILURES` passwords or codes between two lockouts, or spends a code twice.
 *
 * `failed_sign_ins` counts the attempts since the last success that did not succeed: failed, or
 * still being checked (an attempt is counted before its password is, and given back when it
 * proves right). A failure that leaves the count at the limit locks the account; so does an
 * attempt that finds the limit taken by attempts still in flight (it is not checked). Every lock
 * resets the count. A success signs in only while the account is not locked.
 */

/** Failed sign-ins in a row that lock an account, and for how long. */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;

const lockEnds = () => new Date(Date.now() + LOCK_MINUTES * 60_000);

/** What counting an attempt found: go on and check it, the account was locked by this attempt, or it was locked already (until then). */
export type Admission = { admitted: true } | { admitted: false; lockedUntil: Date; lockedNow: boolean };

/** Counts an attempt before its password or code is checked; refused while locked, and locks when the limit is taken by attempts in flight. */
export async function admitAttempt(em: EntityManager, memberId: string): Promise<Admission> {
  const now = new Date();
  const [row] = await runStatement<{ failed_sign_ins: number; locked_until: Date | null }>(
    em,
    `update team_members
        set failed_sign_ins = case when failed_sign_ins < ? then failed_sign_ins + 1 else 0 end,
            locked_until = case when failed_sign_ins < ? then locked_until else ?::timestamptz end
      where id = ? and (locked_until is null or locked_until <= ?)
      returning failed_sign_ins, locked_until`,
    [LOCK_AFTER_FAILURES, LOCK_AFTER_FAILURES, lockEnds(), memberId, now],
    { autocommit: true },
  );
  if (row && row.failed_sign_ins > 0) return { admitted: true };
  if (row) return { admitted: false, lockedUntil: new Date(row.locked_until!), lockedNow: true };
  return { admitted: false, lockedUntil: await lockEnd(em, memberId), lockedNow: false };
}

/** When the account's lock ends (a lock of LOCK_MINUTES from now when it just ended). */
export async function lockEnd(em: EntityManager, memberId: string): Promise<Date> {
  const [row] = await runStatement<{ locked_until: Date | null }>(
    em,
    `select locked_until from team_members where id = ?`,
    [memberId],
    { autocommit: true },
  );
  return row?.locked_until ? new Date(row.locked_until) : lockEnds();
}

/** An admitted attempt failed: locks the account (until the date returned) when the count is at the limit, else null. */
export async function attemptFailed(em: EntityManager, memberId: string): Promise<Date | null> {
  const now = new Date();
  const [row] = await runStatement<{ locked_until: Date }>(
    em,
    `update team_members set failed_sign_ins = 0, locked_until = ?
      where id = ? and failed_sign_ins >= ? and (locked_until is null or locked_until <= ?)
      returning locked_until`,
    [lockEnds(), memberId, LOCK_AFTER_FAILURES, now],
    { autocommit: true },
  );
  return row ? new Date(row.locked_until) : null;
}

/** An admitted password proved right but the second factor is still to come: the attempt is given back (it was no failure). */
export async function attemptReturned(em: EntityManager, memberId: string): Promise<void> {
  await runStatement(
    em,
    `update team_members set failed_sign_ins = greatest(failed_sign_ins - 1, 0) where id = ?`,
    [memberId],
    { autocommit: true },
  );
}

/** An admitted attempt succeeded: signs in (the count is reset) unless the account was locked meanwhile; returns the sign-in time, or null when locked. */
export async function attemptSucceeded(em: EntityManager, memberId: string): Promise<Date | null> {
  const now = new Date();
  const [row] = await runStatement<{ last_sign_in_at: Date }>(
    em,
    `update team_members set failed_sign_ins = 0, locked_until = null, last_sign_in_at = ?
      where id = ? and (locked_until is null or locked_until <= ?)
      returning last_sign_in_at`,
    [now, memberId, now],
    { autocommit: true },
  );
  return row ? new Date(row.last_sign_in_at) : null;
}

/** Spends TOTP time step `step`: true unless it (or a later one) was accepted already. */
export async function spendTotpStep(em: EntityManager, memberId: string, step: number): Promise<boolean> {
  const rows = await runStatement<{ id: string }>(
    em,
    `update team_members set totp_last_step = ? where id = ? and (totp_last_step is null or totp_last_step < ?) returning id`,
    [step, memberId, step],
    { autocommit: true },
  );
  return rows.length === 1;
}

/** Spends the recovery code of SHA-256 `hashed`: true when it was unused (it is gone now). */
export async function spendRecoveryCode(em: EntityManager, memberId: string, hashed: string): Promise<boolean> {
  const rows = await runStatement<{ id: string }>(
    em,
    `update team_members set recovery_code_hashes = array_remove(recovery_code_hashes, ?) where id = ? and ? = any(recovery_code_hashes) returning id`,
    [hashed, memberId, hashed],
    { autocommit: true },
  );
  return rows.length === 1;
}
