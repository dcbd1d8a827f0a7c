// The import boundaries of the repository, checked by `npm test` (docs/architecture.md, "Folders", says why).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles anywhere: every module can be read (and tested) after what it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-is-a-leaf',
      comment: 'protocol/ is the wire contract every part speaks; it imports nothing else of the project, and no package.',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { pathNot: ['^protocol/', '^node:'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'renderer-depends-only-on-protocol',
      comment: 'templates-renderer/ draws templates for anyone: it imports protocol/ and its own files (and packages), nothing above.',
      severity: 'error',
      from: { path: '^templates-renderer/' },
      to: { path: '^(daemon|cli|tray|relay|bench|test|scripts|clients)/' },
    },
    {
      name: 'daemon-never-imports-the-cli',
      comment: 'The CLI is a client of the daemon, never a part of it.',
      severity: 'error',
      from: { path: '^daemon/' },
      to: { path: '^(cli|tray|relay|bench|test)/' },
    },
    {
      name: 'relay-never-imports-the-daemon',
      comment: 'The relay is a separate service: it shares only the wire contract (protocol/).',
      severity: 'error',
      from: { path: '^relay/' },
      to: { path: '^(daemon|cli|tray|templates-renderer|bench|test)/' },
    },
    {
      name: 'product-code-never-imports-tests',
      severity: 'error',
      from: { path: '^(protocol|daemon|cli|tray|templates-renderer|relay)/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
