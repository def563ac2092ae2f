import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.js';
import { hasLoneSurrogate } from '../text.js';
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
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** What makes a string unstorable text: U+0000, or a UTF-16 surrogate without its partner. */
function badText(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes(NUL)) return 'nul';
  if (hasLoneSurrogate(text)) return 'surrogate';
  return undefined;
}

/** The first string (or key) of an already depth-bounded JSON value that is not storable text, with its path. */
function badTextPath(value: unknown): { path: string; bad: 'nul' | 'surrogate' } | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = badText(v);
      if (bad) return { path, bad };
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        const bad = badText(k);
        if (bad) return { path: at, bad };
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}

const nulError = (param: string) =>
  new DomainError('invalid_request', `${param || 'The body'} may not contain the NUL character (U+0000).`, {
    param: param || undefined,
  });
const surrogateError = (param: string) =>
  new DomainError(
    'invalid_request',
    `${param || 'The body'} holds a lone UTF-16 surrogate (an escape such as \\ud800 without its pair): not valid Unicode text.`,
    { param: param || undefined },
  );

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body parser: the bytes must be UTF-8 (invalid bytes are refused, never stored as
 * U+FFFD), then Fastify's own parser (prototype-poisoning safe) behind a depth limit checked on
 * the text, then a refusal of U+0000 and of lone surrogates anywhere in the value. Each answers
 * 400 `invalid_request`, naming the field when there is one.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received (UTF-8 text), for signatures computed over the exact bytes. */
    rawBody?: string;
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(
        new DomainError('invalid_request', 'The request body is not valid UTF-8: send JSON text encoded as UTF-8.'),
        undefined,
      );
      return;
    }
    if (text.trim() === '') {
      done(null, undefined); // an empty body with a JSON content type is no body (every field optional, or each required one named)
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(
        new DomainError(
          'invalid_request',
          `The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`,
        ),
        undefined,
      );
      return;
    }
    // Fastify's default parser answers through the callback and returns nothing (its type also admits a promise-returning parser).
    void parseJson(req, text, (err, value) => {
      if (err) return done(err, undefined);
      const found = badTextPath(value);
      if (found) return done(found.bad === 'nul' ? nulError(found.path) : surrogateError(found.path), undefined);
      req.rawBody = text; // what a signature over the exact bytes is checked against (Adyen's tokenization webhooks)
      done(null, value);
    });
  });
}

/**
 * The `text/csv` body parser (bulk uploads): UTF-8 text without U+0000, as a string; anything
 * else is 400 `invalid_request`.
 */
export function registerCsvBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (_req, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(
        new DomainError(
          'invalid_request',
          'The request body is not valid UTF-8: send the CSV as UTF-8 text (e.g. not Windows-1252).',
        ),
        undefined,
      );
      return;
    }
    if (text.includes(NUL)) done(nulError(''), undefined);
    else done(null, text);
  });
}

/**
 * Path ids with control characters name nothing (404 `not_found`, before any query); query
 * parameters holding U+0000 are refused (400 `invalid_request`). Runs on every route.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    for (const [name, value] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && hasControlCharacter(value))
        return done(new DomainError('not_found', 'No such object: the id holds a control character.', { param: name }));
    }
    for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (name.includes(NUL) || values.some((v) => typeof v === 'string' && v.includes(NUL)))
        return done(nulError(name.replaceAll(NUL, '')));
    }
    done();
  });
}
