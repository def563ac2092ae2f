import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Adyen's own OpenAPI documents (copied unchanged from Adyen's `adyen-openapi` repository), kept
 * in `test/fixtures/adyen/`; `ADYEN_SPECS_DIR` points elsewhere.
 */
export function adyenSpecPath(
  file:
    'CheckoutService-v72.json' | 'DisputeService-v30.json' | 'Webhooks-v1.json' | 'TokenizationNotification-v1.json',
): string {
  const dir = process.env.ADYEN_SPECS_DIR ?? path.resolve(process.cwd(), 'test', 'fixtures', 'adyen');
  const file_ = path.join(dir, file);
  if (!existsSync(file_))
    throw new Error(
      `Adyen's ${file} not found in ${dir} (set ADYEN_SPECS_DIR to the folder holding Adyen's OpenAPI documents)`,
    );
  return file_;
}

const loaded = new Map<string, unknown>();

/** The parsed document (read once per process). */
export function adyenSpec(file: Parameters<typeof adyenSpecPath>[0]): Record<string, unknown> {
  let doc = loaded.get(file);
  if (!doc) {
    doc = JSON.parse(readFileSync(adyenSpecPath(file), 'utf8'));
    loaded.set(file, doc);
  }
  return doc as Record<string, unknown>;
}
