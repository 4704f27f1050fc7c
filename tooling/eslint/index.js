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
 * @param {{ kind: 'package' | 'app' | 'extension' | 'tool' }} options
 */
export function tandem({ kind }) {
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
