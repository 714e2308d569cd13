// ESLint for the whole tree: eslint:recommended and typescript-eslint's type-checked rules, which
// catch floating promises and unsafe `any`. Layout is Prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'docs/api/', '.runtimes/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['scripts/*.js', 'bin/*.js', 'eslint.config.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // `x == null` is the one deliberate loose comparison: null or undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-prototype-builtins': 'error',
      // A caught value is passed on as it is (`Promise.reject(error)` in a catch), whatever it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `${value satisfies never}`-style misuse messages print what arrived at run time anyway.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNever: true }],
      // `{ omitted: _omitted, ...rest }` drops a field; a leading underscore marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Indexed reads are asserted (`list[i] as T`) on purpose, so they read the same under noUncheckedIndexedAccess.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // `async` is kept on methods with no `await` so that a throw becomes a rejection and the interface's promise type shows.
      '@typescript-eslint/require-await': 'off',
      // A function that needs its own `this` (a listener wrapper, a store's context object) names the outer one.
      '@typescript-eslint/no-this-alias': 'off',
      // Handler callbacks are declared as methods (handlers type-check bivariantly) and are read off the
      // handler and called with `.call(handler, …)` or handed on; the rule cannot see that binding.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The build scripts and the launcher are CommonJS JavaScript: require() is their import, and
    // without type annotations every parameter is `any`, so only the promise rules apply there.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and the bench load the JavaScript build scripts and the CommonJS build, which `import` cannot type without allowJs.
      '@typescript-eslint/no-require-imports': 'off',
      // A variable gets its first value where it is declared, for the reader, even when every branch sets it; the
      // bench clears references (`prepared = null`) so that the collector may free them before the next measurement.
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests walk recorded provider JSON (JSON.parse output) loosely and assert its shape with deep equality.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Those JSON values are stringified as they are, whatever they hold.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Type tests hold lines that fail to compile on purpose (under @ts-expect-error); their type is `any`.
    files: ['test/**/*.types.ts'],
    rules: { '@typescript-eslint/no-unsafe-call': 'off' },
  },
);
