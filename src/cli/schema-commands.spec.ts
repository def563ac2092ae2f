import { schemaChanges } from './schema-commands.js';

const BEFORE = `
  enum Status { ACTIVE INACTIVE }
  type Product { id: ID! name: String! price: Int! }
  type Query { product(id: ID!): Product products(first: Int): [Product!]! }
`;

test('classifies breaking, dangerous and safe changes', async () => {
  const after = `
    enum Status { ACTIVE INACTIVE ARCHIVED }
    type Product { id: ID! name: String! tagline: String }
    type Query { product(id: ID!): Product products(first: Int, after: String): [Product!]! }
  `;
  const changes = await schemaChanges(BEFORE, after);
  expect(changes.breaking).toEqual([expect.stringContaining("Field 'price' was removed from object type 'Product'")]);
  expect(changes.dangerous).toEqual(
    expect.arrayContaining([
      expect.stringContaining("Enum value 'ARCHIVED' was added to enum 'Status'"),
      expect.stringContaining("Argument 'after: String' added"),
    ]),
  );
  expect(changes.safe).toEqual([expect.stringContaining("Field 'tagline' was added to object type 'Product'")]);
});

test('no changes for the same schema', async () => {
  expect(await schemaChanges(BEFORE, BEFORE)).toEqual({ breaking: [], dangerous: [], safe: [] });
});
