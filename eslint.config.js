import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Folders below the HTTP layer: none of them may import `src/api/` (only the routes map errors to statuses). */
const BELOW_API = [
  'runtime',
  'engines',
  'workers',
  'models',
  'store',
  'voice',
  'audio',
  'text',
  'backends',
  'memory',
  'retrieval',
  'data',
  'images',
  'recorder',
  'catalogue',
];

/** Every module of src/ outside the weight store: they import it only through src/store/index.ts. */
const OUTSIDE_STORE = readdirSync('src', { withFileTypes: true })
  .filter((entry) => entry.name !== 'store')
  .map((entry) => `./src/${entry.name}`);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/.fixtures/', 'test-results/', 'playwright-report/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.d.ts'] })],
    },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // TypeScript checks names; the .mjs scripts run in Node and in pages.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...BELOW_API.map((folder) => ({
              target: `./src/${folder}`,
              from: './src/api',
              message: 'Layers below the routes do not import src/api/: throw an EngineError (src/protocol/).',
            })),
            {
              target: './src/protocol',
              from: './src',
              except: ['./protocol'],
              message:
                'src/protocol/ is the contract between page, workers and tabs: it imports nothing from the rest of src/.',
            },
            {
              target: OUTSIDE_STORE,
              from: './src/store',
              except: ['./index.ts'],
              message: 'Import the weight store through its front door, src/store/index.ts.',
            },
          ],
        },
      ],
    },
  },
);
