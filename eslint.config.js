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
    // docs/architecture.md: the agent core and the tools run the same under every host, so they never reach up.
    files: ['src/agent/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(github|jobs|hosts|usecases)(/|$)',
              message: 'src/agent must not import src/github, src/jobs, src/hosts or src/usecases (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  // docs/architecture.md: the arrows point one way. Each block forbids the folders a layer must not reach.
  ...[
    // The tools, the model seam and the workspace sit below the agent core: they never import it.
    { files: ['src/tools/**/*.ts'], regex: '(^|/)(agent|github|jobs|hosts|usecases)(/|$)', message: 'src/tools must not import src/agent, src/github, src/jobs, src/hosts or src/usecases (docs/architecture.md).' },
    { files: ['src/model/**/*.ts'], regex: '(^|/)(agent|tools|run|github|jobs|hosts|usecases)(/|$)', message: 'src/model must not import the agent core or anything above it (docs/architecture.md).' },
    { files: ['src/workspace/**/*.ts'], regex: '(^|/)(agent|tools|run|github|jobs|hosts|usecases)(/|$)', message: 'src/workspace must not import the agent core or anything above it (docs/architecture.md).' },
    { files: ['src/github/**/*.ts'], regex: '(^|/)(usecases|jobs|hosts)(/|$)', message: 'src/github must not import src/usecases, src/jobs or src/hosts (docs/architecture.md).' },
    { files: ['src/usecases/**/*.ts'], regex: '(^|/)(jobs|hosts)(/|$)', message: 'src/usecases must not import src/jobs or src/hosts: define the port it needs in usecases/ports.ts (docs/architecture.md).' },
    { files: ['src/run/**/*.ts'], regex: '(^|/)(usecases|jobs|hosts)(/|$)', message: 'src/run must not import src/usecases, src/jobs or src/hosts (docs/architecture.md).' },
    { files: ['src/jobs/**/*.ts'], regex: '(^|/)hosts(/|$)', message: 'src/jobs must not import src/hosts (docs/architecture.md).' },
    { files: ['src/memory/**/*.ts'], regex: '(^|/)(jobs|hosts|run)(/|$)', message: 'src/memory must not import src/jobs, src/hosts or src/run (docs/architecture.md).' },
    // Hosts are independent: what two hosts share lives in src/hosts/shared. The one exception is the CLI's
    // `serve` command (src/hosts/cli/serve.ts), the process entry that starts the App's server.
    { files: ['src/hosts/action/**/*.ts'], regex: '^(\\.\\./)+(hosts/)?(probot|cli)(/|$)', message: 'src/hosts/action must not import another host; shared wiring goes in src/hosts/shared.' },
    { files: ['src/hosts/probot/**/*.ts'], regex: '^(\\.\\./)+(hosts/)?(action|cli)(/|$)', message: 'src/hosts/probot must not import another host; shared wiring goes in src/hosts/shared.' },
    { files: ['src/hosts/cli/**/*.ts'], ignores: ['src/hosts/cli/serve.ts'], regex: '^(\\.\\./)+(hosts/)?(action|probot)(/|$)', message: 'src/hosts/cli must not import another host (only cli/serve.ts starts the App); shared wiring goes in src/hosts/shared.' },
    { files: ['src/hosts/cli/serve.ts'], regex: '^(\\.\\./)+(hosts/)?action(/|$)', message: 'src/hosts/cli must not import the Action host.' },
    { files: ['src/hosts/shared/**/*.ts'], regex: '^(\\.\\./)+(hosts/)?(action|cli|probot)(/|$)', message: 'src/hosts/shared is below every host: it imports none of them.' },
  ].map(({ files, ignores, regex, message }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
  })),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/hosts/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // docs/architecture.md: no function in src/ is longer than 100 lines, counting every line (blank lines and comments too).
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
);
