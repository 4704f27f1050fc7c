// Shared flat config. Boundaries are enforced here, not by convention:
//  - packages never import apps,
//  - the extension never imports server-side code,
//  - process.env is read only in a validated env.ts,
//  - no reaching into another package's src/ or dist/ by path.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const crossPackagePath = {
  group: ['**/packages/*/src/**', '**/packages/*/dist/**', '@tandem/*/src/*', '@tandem/*/dist/*'],
  message: 'Import another package by its name (@tandem/x), never by path into src/ or dist/.',
};

const appImports = {
  group: [
    '@tandem/server',
    '@tandem/server/*',
    '@tandem/extension',
    '@tandem/extension/*',
    '@tandem/demo-sites',
    '**/apps/**',
  ],
  message: 'Packages must not import apps.',
};

// Server-only code: anything that touches the database, LLMs, Node built-ins for I/O.
const serverOnly = {
  group: [
    '@tandem/server',
    '@tandem/server/*',
    '@tandem/store',
    '@tandem/store/*',
    '@tandem/agent',
    '@tandem/agent/*',
    '@tandem/llm',
    '@tandem/llm/*',
    '@tandem/observability',
    '@tandem/observability/*',
    '@tandem/knowledge',
    '@tandem/knowledge/*',
    '@tandem/extraction',
    '@tandem/extraction/*',
    'node:*',
    'mongoose',
    'mongodb',
    '@libsql/*',
  ],
  message: 'The extension is a thin client: it may import @tandem/contracts and @tandem/page only.',
};

const processEnvBan = {
  'no-restricted-properties': [
    'error',
    { object: 'process', property: 'env', message: 'Read configuration through env.ts only.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "MemberExpression[object.name='process'][property.value='env']",
      message: 'Read configuration through env.ts only.',
    },
  ],
};

/**
 * @param {{
 *   kind: 'package' | 'app' | 'extension' | 'tool',
 *   maxFunctionLines?: number,
 * }} options `maxFunctionLines`: the longest function allowed outside tests (declarative
 *   tables may say why they are longer with an eslint-disable comment).
 */
export function tandem({ kind, maxFunctionLines }) {
  const restricted =
    kind === 'package'
      ? [crossPackagePath, appImports]
      : kind === 'extension'
        ? [crossPackagePath, serverOnly]
        : [crossPackagePath];
  return tseslint.config(
    {
      ignores: ['**/dist/**', '**/.next/**', '**/node_modules/**', '**/.turbo/**', 'next-env.d.ts'],
    },
    js.configs.recommended,
    ...tseslint.configs.strict,
    {
      rules: {
        'no-restricted-imports': ['error', { patterns: restricted }],
        ...processEnvBan,
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
        ],
        '@typescript-eslint/consistent-type-imports': 'error',
        eqeqeq: ['error', 'smart'],
      },
    },
    {
      // Typed rules: a promise nobody awaits loses its error (an unhandled rejection, or a
      // write that silently never happened), and an async callback where a sync one is
      // expected (an event listener, a forEach) runs unawaited for the same reason.
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: process.cwd() },
      },
      rules: {
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': 'error',
      },
    },
    ...(maxFunctionLines
      ? [
          {
            files: ['**/*.ts', '**/*.tsx'],
            ignores: ['**/*.test.ts', '**/*.test.tsx'],
            rules: { 'max-lines-per-function': ['error', { max: maxFunctionLines }] },
          },
        ]
      : []),
    {
      // The one place configuration is read.
      files: ['**/env.ts'],
      rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
    },
    {
      files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
      ...tseslint.configs.disableTypeChecked,
    },
  );
}

export default tandem;
