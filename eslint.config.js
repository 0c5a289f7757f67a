import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

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
            {
              target: './src/protocol',
              from: './src',
              except: ['./protocol'],
              message: 'src/protocol/ is the contract between page, workers and tabs: it imports nothing else of src/.',
            },
            { target: './src/catalogue', from: './src', except: ['./protocol', './catalogue'] },
            {
              target: './src/common',
              from: [
                './src/page',
                './src/worker',
                './src/cli',
                './src/widgets',
                './src/ai-sdk',
                './src/index.ts',
                './src/iife.ts',
              ],
              message: 'src/common/ has no thread affinity: it imports protocol/, catalogue/ and common/ only.',
            },
            {
              target: './src/worker',
              from: ['./src/page', './src/cli', './src/widgets', './src/ai-sdk', './src/index.ts'],
              message: 'Workers never import page code.',
            },
            {
              target: './src/page',
              from: ['./src/worker', './src/cli', './src/widgets', './src/ai-sdk'],
              message: 'The page starts workers by URL; it imports their contract from src/protocol/.',
            },
            { target: './src/cli', from: ['./src/page', './src/worker', './src/widgets', './src/ai-sdk'] },
            {
              target: [
                './src/page/services',
                './src/page/engines',
                './src/page/hosts',
                './src/page/share',
                './src/page/clients',
                './src/page/recorder',
              ],
              from: './src/page/api',
              message: 'Below the routes nothing imports src/page/api/: throw an EngineError (src/protocol/).',
            },
            {
              target: ['./src/page/engines', './src/page/hosts', './src/page/share', './src/page/clients'],
              from: './src/page/services',
            },
            { target: ['./src/page/hosts', './src/page/share'], from: './src/page/engines' },
            { target: './src/page/hosts', from: './src/page/share' },
            { target: './src/worker/host', from: './src/worker', except: ['./host'] },
            { target: './src/worker/collections', from: './src/worker', except: ['./collections'] },
            {
              target: ['./src/page', './src/worker', './src/cli'],
              from: './src/common/weights',
              except: ['./index.ts'],
              message: 'Import the weight store through its front door, src/common/weights/index.ts.',
            },
          ],
        },
      ],
    },
  },
);
