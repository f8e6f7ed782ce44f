// ESLint flat config. The one rule that matters most: shared/ stays pure TypeScript, so the engine and the
// API contract run unchanged in the main process, the renderer, workers and the CLI.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'

const NODE_BUILTINS = ['fs', 'path', 'os', 'url', 'crypto', 'child_process', 'worker_threads', 'stream', 'http', 'https', 'net', 'zlib', 'util', 'events', 'buffer', 'readline']

export default tseslint.config(
  { ignores: ['out/**', 'release/**', 'node_modules/**', 'test-output/**', 'assets/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } }
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/no-v-html': 'error',
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }]
    }
  },
  // shared/ (the engine, the formats with their Jinja syntax tree, the loaders) and main/ are typed end to end: values
  // from JSON or a config are `unknown` and narrowed where they are read, so no `any` may creep back in.
  { files: ['shared/**', 'main/**'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  { files: ['main/**', 'test/**', '*.config.*', '*.mjs'], languageOptions: { globals: { ...globals.node } } },
  { files: ['renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  // Playwright specs pass functions that run in the page.
  { files: ['test/e2e/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ['shared/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...NODE_BUILTINS], message: 'shared/ must not import Node modules' },
            { group: ['electron', 'electron/*'], message: 'shared/ must not import Electron' },
            { group: ['vue', 'pinia', '@vue/*'], message: 'shared/ must not import Vue or Pinia' },
            { group: ['**/main/**', '**/renderer/**', '../../main/*', '../../renderer/*'], message: 'shared/ must not import process folders' }
          ]
        }
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', 'navigator', 'localStorage', '__dirname']
    }
  }
)
