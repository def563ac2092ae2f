import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.js';
import { hasControlCharacter } from '../validation.js';

/** Deepest nesting of objects and arrays a JSON body may have (real bodies stay under 10). */
export const MAX_JSON_DEPTH = 32;

/** PostgreSQL text cannot hold U+0000: such input is refused at the edge, never sent to the database. */
const NUL = '\u0000';

/** The nesting depth of JSON text, counted without parsing (so nothing recurses on hostile input). */
function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** The path of the first string (or key) holding U+0000 in an already depth-bounded JSON value. */
function nulPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (k.includes(NUL)) return at;
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}

const nulError = (param: string) => new DomainError('invalid_request', `${param || 'The body'} may not contain the NUL character (U+0000).`, { param: param || undefined });

/**
 * The JSON body parser: Fastify's own (prototype-poisoning safe) behind a depth limit checked on
 * the raw text, then a refusal of U+0000 anywhere in the value. Both answer 400 `invalid_request`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(new DomainError('invalid_request', `The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parseJson(req, text, (err, value) => {
      if (err) return done(err, undefined);
      const at = nulPath(value);
      if (at !== undefined) return done(nulError(at), undefined);
      done(null, value);
    });
  });
}

/**
 * Path ids with control characters name nothing (404 `not_found`, before any query); query
 * parameters holding U+0000 are refused (400 `invalid_request`). Runs on every route.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const [name, value] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && hasControlCharacter(value)) throw new DomainError('not_found', 'No such object: the id holds a control character.', { param: name });
    }
    for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (name.includes(NUL) || values.some((v) => typeof v === 'string' && v.includes(NUL))) throw nulError(name.replaceAll(NUL, ''));
    }
  });
}
