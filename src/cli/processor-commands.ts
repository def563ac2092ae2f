import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config/config.js';
import { migrate } from '../platform/db/database.js';
import {
  checkProcessorAccountInput,
  configureProcessorAccounts,
  setProcessorAccount,
  showProcessorAccount,
} from '../modules/processor-accounts/processor-account.service.js';
import { PROCESSOR_USAGE } from './usage.js';

export { PROCESSOR_USAGE };

const setOptions = {
  merchant: { type: 'string' },
  provider: { type: 'string' },
  'merchant-account': { type: 'string' },
  'api-key': { type: 'string' },
  'client-key': { type: 'string' },
  'hmac-key': { type: 'string' },
  'live-url-prefix': { type: 'string' },
} as const;

/** The arguments of `processor set|show`; a mistake is described without repeating any value (it may be a key). */
function parse<O extends Partial<typeof setOptions>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why =
      code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
        ? 'an unexpected argument (a value without its --option?)'
        : (err as Error).message;
    throw new Error(`processor: ${why}\nusage:\n  ${PROCESSOR_USAGE}`);
  }
}

/** `processor set` and `processor show`: the masked configuration as JSON on stdout, errors on stderr (exit 1). */
export async function processorCommand(
  sub: string | undefined,
  args: string[],
  withOrm: <T>(fn: (orm: MikroORM) => Promise<T>) => Promise<T>,
): Promise<number> {
  if (sub !== 'set' && sub !== 'show') throw new Error(`usage:\n  ${PROCESSOR_USAGE}`);
  const values = parse(args, sub === 'set' ? setOptions : { merchant: setOptions.merchant });
  if (!values.merchant) throw new Error(`processor ${sub}: --merchant is required\nusage:\n  ${PROCESSOR_USAGE}`);
  const merchantId = values.merchant;
  configureProcessorAccounts(loadConfig());
  const v = values as Partial<Record<keyof typeof setOptions, string>>;
  const input = {
    provider: v.provider,
    merchant_account: v['merchant-account'],
    api_key: v['api-key'],
    client_key: v['client-key'],
    hmac_key: v['hmac-key'],
    live_url_prefix: v['live-url-prefix'],
  };
  // A mistake in the arguments or the environment is told before the database is opened.
  if (sub === 'set') checkProcessorAccountInput(input);
  const view = await withOrm(async (orm) => {
    await migrate(orm);
    const em = orm.em.fork();
    return sub === 'show' ? showProcessorAccount(em, merchantId) : setProcessorAccount(em, merchantId, input);
  });
  if (!view)
    throw new Error(
      `processor show: merchant ${merchantId} has no processor configuration (set one with: npm run cli -- processor set …)`,
    );
  process.stdout.write(`${JSON.stringify(view)}\n`);
  return 0;
}
