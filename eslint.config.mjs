// The linter (`npm run lint`): typescript-eslint's recommended rules without type information
// (fast: no TypeScript program is built), plus the house style of issue 17: names that explain
// themselves and named-object parameters past three arguments. Line width is prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Node's globals for the plain JavaScript build scripts (TypeScript files get theirs from tsc).
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'require', 'module', '__dirname', 'URL', 'Buffer', 'setTimeout', 'clearTimeout'].map(
    (name) => [name, 'readonly'],
  ),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'assets/runtime/**',
      '**/fixtures/**',
      'tests/artifacts/**',
      'native-android/**',
      'samples/*/library/**',
      'samples/*/temp/**',
      'samples/*/build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Names that say what they hold; `_` is the conventional "deliberately unused".
      'id-length': ['error', { min: 2, exceptions: ['_'], properties: 'never' }],
      // Past three arguments, one named-object parameter.
      'max-params': 'off',
      '@typescript-eslint/max-params': ['error', { max: 3 }],
      'max-len': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['tests/**'],
    rules: {
      // Tests load a fresh module inside jest.isolateModules and in jest.mock factories (hoisted
      // above imports), where only require() works.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
