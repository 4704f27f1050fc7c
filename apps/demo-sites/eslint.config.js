import { tandem } from '@tandem/eslint-config';

// The demo sites' browser scripts run as ES modules in a page, not in Node. We list the
// globals they use rather than pull in a package for the whole browser set.
const browserGlobals = Object.fromEntries(
  [
    'window',
    'document',
    'location',
    'history',
    'navigator',
    'console',
    'fetch',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'URL',
    'URLSearchParams',
    'FormData',
    'CSS',
    'Node',
    'Element',
    'HTMLElement',
    'CustomEvent',
    'customElements',
  ].map((name) => [name, 'readonly']),
);

export default [
  ...tandem({ kind: 'tool' }),
  {
    files: ['public/**/*.js'],
    languageOptions: { sourceType: 'module', globals: browserGlobals },
  },
];
