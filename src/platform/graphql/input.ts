/** `merchantProductId` → `merchant_product_id`, `addressLine1` → `address_line_1`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/([a-z])(\d)/g, '$1_$2');
}

/** `merchant_product_id` → `merchantProductId` (for error field names shown to GraphQL clients). */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A GraphQL input object as the service's input (the spec's snake_case field names), so both
 * surfaces go through the same validation. Only top-level keys are renamed: nested values such
 * as `metadata` are the merchant's own data and pass through untouched.
 */
export function toServiceInput(input: object, omit: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && !omit.includes(key)) out[snakeCase(key)] = value;
  }
  return out;
}

/**
 * Like `toServiceInput`, but renames nested object keys too (checkout's `customer.firstName` →
 * `customer.first_name`), except below the keys in `opaque` (the merchant's own `metadata`).
 */
export function toServiceInputDeep(input: unknown, opaque: string[] = ['metadata']): unknown {
  if (Array.isArray(input)) return input.map((v) => toServiceInputDeep(v, opaque));
  if (!input || typeof input !== 'object' || input instanceof Date) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[snakeCase(key)] = opaque.includes(key) ? value : toServiceInputDeep(value, opaque);
  }
  return out;
}
