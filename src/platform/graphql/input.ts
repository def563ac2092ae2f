/** `merchantProductId` → `merchant_product_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `merchant_product_id` → `merchantProductId` (for error field names shown to GraphQL clients). */
export function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
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
