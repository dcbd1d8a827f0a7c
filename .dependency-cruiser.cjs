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
      name: 'common-is-a-leaf',
      comment:
        "common/ holds the small parts that programs on different floors share (the daemon's CLI and the relay): it imports Node's own modules only.",
      severity: 'error',
      from: { path: '^common/' },
      to: { pathNot: ['^common/', '^node:'], dependencyTypesNot: ['core'] },
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
      name: 'tray-speaks-through-the-channel',
      comment:
        'The tray companion is a client of the private channel: it imports daemon/control (the channel), daemon/present (the words and looks it shares with banners) and daemon/integrations/dbus-bus.ts (where every D-Bus connection is made), never the core.',
      severity: 'error',
      from: { path: '^tray/' },
      to: {
        path: '^daemon/',
        pathNot: ['^daemon/(control|present)/', '^daemon/integrations/dbus-bus\\.ts$', '^daemon/(log|version|support-dir)\\.ts$'],
      },
    },
    {
      name: 'cli-never-imports-the-core',
      comment:
        "The command-line tool and the agent server are clients of the daemon's HTTP API and private channel. What they share with the daemon lives in protocol/, common/, or a named daemon module outside core/, http/ and store/ (the support folder, the presenters' names, the login service, and daemon.ts for `notifier daemon`).",
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^daemon/(core|http|store)/' },
    },
    {
      name: 'relay-never-imports-the-daemon',
      comment: 'The relay is a separate service: it shares only the wire contract (protocol/).',
      severity: 'error',
      from: { path: '^relay/' },
      to: { path: '^(daemon|cli|tray|templates-renderer|bench|test)/' },
    },
    // relay-floors: inside relay/, a module imports from its own floor and the floors below, never from one above
    // (docs/architecture.md, "relay/ by floor"): a rule per floor, naming what it may import of relay/.
    ...[
      '^relay/(limits|log|version|host-rules|metrics)\\.ts$',
      '^relay/config\\.ts$',
      '^relay/store/',
      '^relay/core/',
      '^relay/oauth/',
      '^relay/(ws|mcp)/',
      '^relay/http/',
    ].map((floor, index, floors) => ({
      name: 'relay-floors',
      comment: `relay/: ${floor} imports only its own floor and those below it; server.ts, main.ts and cli/ wire them.`,
      severity: 'error',
      from: { path: floor },
      to: { path: '^relay/', pathNot: floors.slice(0, index + 1) },
    })),
    {
      name: 'app-depends-only-on-protocol',
      comment:
        "app/ is the person's web app, built for the browser: it imports protocol/ (the contract's types and rules), its own files and its packages, nothing else of the project.",
      severity: 'error',
      from: { path: '^app/' },
      to: { path: '^(daemon|cli|tray|templates-renderer|relay|bench|test|scripts|clients)/' },
    },
    {
      name: 'nothing-imports-the-app',
      comment:
        'The daemon serves the built files of app/ (dist/app/); no other code imports its sources (but a unit test of its browser-free logic, such as the History store).',
      severity: 'error',
      from: { pathNot: '^(app/|test/app/[a-z-]*store\\.test\\.ts$)' },
      to: { path: '^app/' },
    },
    {
      name: 'product-code-never-imports-tests',
      severity: 'error',
      from: { path: '^(protocol|daemon|cli|tray|templates-renderer|relay|app)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'product-code-never-imports-the-harness',
      comment:
        'rigs/ is the harness the tests and the benchmarks share (PostgreSQL, Chromium, D-Bus, the desktop, the relay as a process): it starts what the product is tested on, and nothing that ships imports it.',
      severity: 'error',
      from: { path: '^(protocol|common|daemon|cli|tray|templates-renderer|relay|app)/' },
      to: { path: '^rigs/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // dependency-cruiser's swc reader does not parse JSX: app/'s .tsx files are checked on the graph Vite bundles
    // (app/vite.config.ts, importBoundary), which fails the build on any other import.
    exclude: { path: ['^dist/', '\\.tsx$'] },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
