import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config/config.js';
import { migrate } from '../platform/db/database.js';
import { DomainError } from '../platform/errors.js';
import { rememberedPublicUrl, setPublicUrl } from '../platform/links.js';
import { inviteMember } from '../modules/team/team.service.js';
import { USER_USAGE } from './usage.js';

export { USER_USAGE };

/** `user invite`: the invitation as JSON on stdout (its `setup_url` is the link to hand over), errors on stderr. */
export async function userCommand(
  sub: string | undefined,
  args: string[],
  withOrm: <T>(fn: (orm: MikroORM) => Promise<T>) => Promise<T>,
): Promise<number> {
  const usage = `usage:\n  ${USER_USAGE}`;
  if (sub !== 'invite') throw new Error(usage);
  const { values } = parseArgs({
    args,
    options: { merchant: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    strict: true,
  });
  if (!values.merchant || !values.email || !values.role)
    throw new Error(`user invite: --merchant, --email and --role are required\n${usage}`);
  const invited = await withOrm(async (orm) => {
    await migrate(orm);
    const em = orm.em.fork();
    // The link the service would build: its PUBLIC_URL as it last started, unless this command's environment sets one.
    setPublicUrl(
      process.env.PUBLIC_URL ? loadConfig().publicUrl : ((await rememberedPublicUrl(em)) ?? loadConfig().publicUrl),
    );
    if (
      !(await em.getConnection().execute<unknown[]>('select 1 from merchants where id = ?', [values.merchant])).length
    )
      throw new Error(`user invite: no merchant ${values.merchant}`);
    try {
      return await inviteMember(em, values.merchant!, { email: values.email, role: values.role });
    } catch (err) {
      if (err instanceof DomainError) throw new Error(`user invite: ${err.message}`);
      throw err;
    }
  });
  process.stdout.write(`${JSON.stringify(invited)}\n`);
  return 0;
}
