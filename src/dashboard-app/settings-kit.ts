/** What the settings pages share: the role check, the status line, and form controls. */
import type { gql, gqlText } from './api.js';
import { ROLE_PERMISSIONS, type Role } from '../modules/merchants/permissions.js';
import { $, h } from './dom.js';

/** What a settings page is given: who is signed in, in which mode, and how to query the graph. */
export interface ConsoleContext {
  role: string;
  member: { id: string; email: string; two_factor_enabled: boolean };
  livemode: boolean;
  query: typeof gql;
  queryText: typeof gqlText;
  showError: (err: unknown) => void;
  refreshOrders: () => Promise<void>;
}

/** A message on the settings page's live status line (errors also as an alert). */
export function say(message: string, error = false): void {
  const status = $('settings-status');
  status.textContent = message;
  status.className = error ? 'error' : 'help';
  status.setAttribute('role', error ? 'alert' : 'status');
}

/** Runs `fn`, showing its error on the status line; true when it succeeded. */
export async function attempt(fn: () => Promise<void>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (err) {
    say((err as Error).message, true);
    return false;
  }
}

export const button = (label: string, onclick: () => void, attrs: Record<string, string> = {}) =>
  h('button', { type: 'button', onclick, ...attrs }, label);
export const input = (id: string, attrs: Record<string, string | boolean> = {}) =>
  h('input', { id, name: id, ...attrs }) as HTMLInputElement;
export const value = (id: string) => ($<HTMLInputElement>(id).value ?? '').trim();

/** Whether the role holds `permission` (`x:write` includes `x:read`). The server decides; this only hides what would be refused. */
export function can(role: string, permission: string): boolean {
  const held = ROLE_PERMISSIONS[role as Role];
  if (!held) return false;
  return held.has(permission) || (permission.endsWith(':read') && held.has(permission.replace(/:read$/, ':write')));
}
