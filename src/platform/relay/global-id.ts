import { DomainError } from '../errors.js';
import { hasControlCharacter } from '../validation.js';

/** Opaque global id of a node: base64url of `Type:id`. */
export function toGlobalId(type: string, id: string | number): string {
  return Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
}

/** Decodes a global id; `undefined` when it is not one of ours. */
export function parseGlobalId(globalId: string): { type: string; id: string } | undefined {
  const decoded = Buffer.from(globalId, 'base64url').toString('utf8');
  const sep = decoded.indexOf(':');
  if (
    sep <= 0 ||
    hasControlCharacter(decoded) ||
    toGlobalId(decoded.slice(0, sep), decoded.slice(sep + 1)) !== globalId
  )
    return undefined;
  return { type: decoded.slice(0, sep), id: decoded.slice(sep + 1) };
}

/** The raw id inside a global id of `type`, or 404 `not_found` (a wrong type is as unknown as a wrong id). */
export function fromGlobalId(globalId: string, type: string, param = 'id'): string {
  const parsed = parseGlobalId(globalId);
  if (!parsed || parsed.type !== type) throw new DomainError('not_found', `No such ${type}: '${globalId}'`, { param });
  return parsed.id;
}
