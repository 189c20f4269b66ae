// ESLint for TypeScript and Svelte: the recommended rules of each, run by `npm test` (npm run lint).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

export default defineConfig(
  // test/python/.venv: verify:python's virtual environment, whose packages ship their own JavaScript.
  { ignores: ['dist/', 'data/', 'public/', 'node_modules/', 'test/python/.venv/'] },
  js.configs.recommended,
  ts.configs.recommended,
  svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A leading underscore names what is left out on purpose (`const { key: _, ...rest } = spec`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser } },
    // State is replaced whole, never mutated in place ($state.raw); a Set or Date here is a temporary (a de-duplication, a day's bounds).
    rules: { 'svelte/prefer-svelte-reactivity': 'off' },
  },
  // Tests read JSON bodies and records of any shape.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
