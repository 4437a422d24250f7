import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'build/**', 'dist/**', 'dist-tsc/**', 'coverage/**', 'test/fixtures/**', 'test/e2e/projects/**', 'bench/.cache/**', 'test-output/**', 'examples/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // DESIGN §2: the agent core and the tools run the same under every host, so they never reach up.
    files: ['src/agent/**/*.ts', 'src/tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(github|jobs|hosts|usecases)(/|$)',
              message: 'src/agent and src/tools must not import src/github, src/jobs, src/hosts or src/usecases (DESIGN.md §2).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/hosts/**'],
    rules: { 'no-console': 'error' },
  },
);
