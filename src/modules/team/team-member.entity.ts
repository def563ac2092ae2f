import { ArrayType, Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
import { prefixedId } from '../../platform/db/ids.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { ROLES, type Role } from '../merchants/permissions.js';

/**
 * A member of a merchant's team who signs in to the console (email, argon2id password, optional
 * TOTP). Invited without a password: the invitation link's token (hashed here) sets the first one.
 */
@Entity({ tableName: 'team_members' })
export class TeamMember {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('usr');

  @ManyToOne(() => Merchant, { ref: true, deleteRule: 'cascade' })
  merchant!: Ref<Merchant>;

  /** Lower-cased; one console account per address. */
  @Property({ type: 'string', length: 254, unique: true })
  email!: string;

  @Enum({ items: [...ROLES], type: 'string' })
  role!: Role;

  /** A clinician's name, credential (MD, DO, NP, PA…), NPI and licensed states, as their letters name them. */
  @Property({ type: 'string', nullable: true })
  name?: string | null;

  @Property({ type: 'string', length: 64, nullable: true })
  credential?: string | null;

  @Property({ type: 'string', length: 10, nullable: true })
  npi?: string | null;

  @Property({ type: ArrayType, nullable: true })
  licensedStates?: string[] | null;

  /** argon2id (PHC string); null until the invitation is accepted. */
  @Property({ type: 'string', nullable: true })
  passwordHash?: string | null;

  /** SHA-256 of the one-time link that sets the password (invitation or first owner). */
  @Property({ type: 'string', nullable: true })
  @Index({ name: 'team_members_setup_token_idx' })
  setupTokenHash?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  setupTokenExpiresAt?: Date | null;

  /** The TOTP secret, sealed with SECRETS_KEY when one is configured; set at enrolment, in force once `totpEnabledAt`. */
  @Property({ type: 'string', nullable: true })
  totpSecret?: string | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  totpEnabledAt?: Date | null;

  /** The last TOTP time step accepted: a code is never accepted twice (RFC 6238 §5.2); spent by one conditional update. */
  @Property({ type: 'bigint', nullable: true })
  totpLastStep?: number | null;

  /** SHA-256 of each unused recovery code (shown once at enrolment). */
  @Property({ type: ArrayType, nullable: true })
  recoveryCodeHashes?: string[] | null;

  /** Sign-in attempts since the last success that did not succeed (failed, or still being checked); 5 lock the account for 15 minutes (sign-in-attempts.ts). */
  @Property({ type: 'integer', default: 0 })
  failedSignIns: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastSignInAt?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}

/** A console session (@fastify/session's store): server-side, so signing out or an idle timeout ends it everywhere. */
@Entity({ tableName: 'console_sessions' })
export class ConsoleSession {
  @PrimaryKey({ type: 'string' })
  sid!: string;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  @Index({ name: 'console_sessions_expires_idx' })
  expiresAt!: Date;
}
