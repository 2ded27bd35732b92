import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-prerender/**', '**/node_modules/**', 'data/**', 'apps/api/drizzle/**', '.e2e-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    // Only our own modules are followed for cycles: parsing bundled third-party code is slow and pointless.
    settings: { 'import-x/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Layers: the domain knows nothing of the apps; the web and the API never reach into each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/domain', from: './apps' },
            { target: './apps/web', from: './apps/api' },
            { target: './apps/api', from: './apps/web' },
            { target: './apps/webpay-sim', from: ['./apps/api', './apps/web'] },
            { target: './apps/console', from: ['./apps/api', './apps/web'] },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Features do not import each other: shared code lives in lib/ or components/.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/features/home', from: './apps/web/src/features', except: ['./home'] },
            { target: './apps/web/src/features/errors', from: './apps/web/src/features', except: ['./errors'] },
            { target: './apps/web/src/lib', from: './apps/web/src/features' },
            { target: './apps/web/src/lib', from: './apps/web/src/app' },
            { target: './apps/web/src/components', from: './apps/web/src/features' },
            { target: './apps/web/src/components', from: './apps/web/src/app' },
          ],
        },
      ],
    },
  },
  {
    // The domain's rules and constants are plain TypeScript; zod lives in schemas/, so a screen that imports a rule
    // never brings the validation library with it (the home's budget, scripts/check-budgets.mjs).
    files: ['packages/domain/src/**/*.ts'],
    ignores: ['packages/domain/src/schemas/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: 'Schemas live in packages/domain/src/schemas/.' },
            { name: 'zod/mini', message: 'Schemas live in packages/domain/src/schemas/.' },
          ],
          patterns: [{ regex: '^\\./schemas/', allowTypeImports: true, message: 'A plain module takes only types from schemas/.' }],
        },
      ],
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
