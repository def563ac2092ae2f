// ESLint (flat config): typescript-eslint's recommended and type-checked rules over the sources,
// tests and benches: floating promises, unsafe `any`, misused promises. Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'test/generated/**', 'node_modules/**', 'migrations/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Domain modules write rows three ways (CONTRIBUTING.md, "Reads and writes"): the unit of work,
    // `runStatement` for one hand-written statement, `bulk.ts` for batches (its columns from the entities).
    // No raw driver calls, no hand-written record sets.
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='execute']",
          message: 'No em.execute / getConnection().execute in src/modules: use runStatement (one statement) or bulk.ts (a batch).',
        },
        {
          selector: "CallExpression[callee.property.name='getConnection']",
          message: 'No raw connections in src/modules: use runStatement (one statement) or bulk.ts (a batch).',
        },
        {
          selector: 'Literal[value=/jsonb_to_recordset/], TemplateElement[value.raw=/jsonb_to_recordset/]',
          message: "No hand-written jsonb_to_recordset in src/modules: bulk.ts takes a batch's columns and types from the entity metadata.",
        },
      ],
    },
  },
  {
    // Tests read response bodies as the JSON they are (`ApiResponse<any>` by default) and assert on
    // them; the type checks that guard production code against `any` would only restate each assertion.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
