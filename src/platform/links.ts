import type { EntityManager } from '@mikro-orm/postgresql';

/** Base of the links the service hands out (`checkout_url`, `receipt_url`, payment link `url`): PUBLIC_URL. */
let base = 'http://localhost:4000';

/** Set once at start-up from the configuration. */
export function setPublicUrl(url: string): void {
  base = url.replace(/\/$/, '');
}

/**
 * Records the public URL the service started with, so that commands run beside it (`user invite`
 * prints a link) build links from the service's setting rather than their own environment's.
 */
export async function rememberPublicUrl(em: EntityManager, url: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `insert into service_settings (name, value, updated_at) values ('public_url', ?, now()) on conflict (name) do update set value = excluded.value, updated_at = now()`,
      [url],
    );
}

/** The public URL the service last started with, if it has started on this database. */
export async function rememberedPublicUrl(em: EntityManager): Promise<string | null> {
  const [row] = await em
    .getConnection()
    .execute<{ value: string }[]>(`select value from service_settings where name = 'public_url'`);
  return row?.value ?? null;
}

/** An absolute link to `path` on this service. */
export function publicLink(path: string): string {
  return `${base}${path}`;
}
