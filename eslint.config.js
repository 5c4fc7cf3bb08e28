// One lint configuration for the whole repository, the shipped client included: typescript-eslint's
// type-aware recommended rules; formatting is Prettier's (eslint-config-prettier turns the
// stylistic rules off). `npm test` runs both through test/lint.test.ts; `npm run lint` alone.
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'templates/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  comments.recommended,
  {
    languageOptions: {
      globals: globals.node,
      // tsconfig.test.json covers every TypeScript folder, tests included.
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A rule switched off in place says why, on the same line: `// eslint-disable-next-line rule -- why`.
      '@eslint-community/eslint-comments/require-description': 'error',
      // Patterns that find control characters are this code's job (envelope text, paths, terminal output).
      'no-control-regex': 'off',
      // An async function without await is how an interface's promise-returning method is written
      // plainly, and it turns a throw into a rejection: dropping `async` would change that.
      '@typescript-eslint/require-await': 'off',
      // Promise.all over values some of which are promises (node-cron's destroy() is void | Promise).
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // A signal's abort reason and p-retry's first failure are passed on as they were given.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A leading underscore marks a parameter an interface requires but this implementation ignores.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Vitest types its asymmetric matchers (expect.stringMatching...) as `any` on purpose, to fit
    // any field; every use in an object would need a cast. Reads of `any` are still checked.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Scripts and configuration outside the TypeScript project: syntax rules only.
    files: ['**/*.{js,mjs,d.mts}', 'vitest*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
