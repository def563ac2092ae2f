import type { EntityManager } from '@mikro-orm/postgresql';
import { registerTeamRecipients } from '../email/email-compose.js';
import { TeamMember } from './team-member.entity.js';

// Team messages (disputes, a failing webhook endpoint) go to the merchant's active owners and admins.
registerTeamRecipients(async (em: EntityManager, merchantId: string) => {
  const members = await em.find(
    TeamMember,
    { merchant: merchantId, role: { $in: ['owner', 'admin'] }, passwordHash: { $ne: null } },
    { orderBy: { createdAt: 'asc' } },
  );
  return members.length ? members.map((m) => m.email).join(', ') : null;
});
