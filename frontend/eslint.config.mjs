// Lint for the app: typescript-eslint's recommended rules, the rules of hooks, and the
// boundaries between features (DESIGN.md, "The app"): a feature reaches another only through
// its public `api`; features' routes are composed in src/app; src/shared knows no feature.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

const OTHER_FEATURE = 'A feature reaches another only through `@/features/<name>/api`; its own modules by relative path.';

// A relative import climbing `depth` directories from a file `depth` levels inside its
// feature leaves the feature; `depth` more levels reach src/ itself.
const featureRules = (depth) => ({
  files: [`src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: '^@/features/(?![^/]+/api$)', message: OTHER_FEATURE },
          { regex: `^(\\.\\./){${depth}}`, message: OTHER_FEATURE },
        ],
      },
    ],
  },
});

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'e2e/screenshots/', 'src/**/*.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  ...[1, 2, 3, 4].map(featureRules),
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(@/|(\\.\\./)+)features(/|$)', message: 'src/shared is used by features and knows none of them.' }] }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/setupTests.ts'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
  },
  {
    files: ['*.{js,mjs}', 'scripts/**/*.mjs', 'e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
