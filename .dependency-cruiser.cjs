// The import boundaries of the repository, checked by `npm test` (docs/architecture.md, "Folders", says why).

/** A leaf: what is under `folder/` imports its own files and Node's own modules, nothing else. */
const leaf = (name, folder, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: `^${folder}/` },
  to: { pathNot: [`^${folder}/`, '^node:'], dependencyTypesNot: ['core'] },
});

/** What is under `from` (a path pattern) never imports what is under these folders. */
const neverImports = (name, from, folders, comment) => ({
  name,
  ...(comment ? { comment } : {}),
  severity: 'error',
  from: { path: from },
  to: { path: `^(${folders.join('|')})/` },
});

/** The folders of the code that ships: none of it imports the tests or their harness. */
const PRODUCT = '^(protocol|common|daemon|cli|tray|templates-renderer|relay|app)/';

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
    leaf(
      'protocol-is-a-leaf',
      'protocol',
      'protocol/ is the wire contract every part speaks; it imports nothing else of the project, and no package.',
    ),
    leaf(
      'common-is-a-leaf',
      'common',
      "common/ holds the small parts that programs on different floors share (the daemon's CLI and the relay): it imports Node's own modules only.",
    ),
    neverImports(
      'renderer-depends-only-on-protocol',
      '^templates-renderer/',
      ['daemon', 'cli', 'tray', 'relay', 'bench', 'test', 'scripts', 'clients'],
      'templates-renderer/ draws templates for anyone: it imports protocol/, common/ and its own files (and packages), nothing above.',
    ),
    neverImports(
      'daemon-never-imports-the-cli',
      '^daemon/',
      ['cli', 'tray', 'relay', 'bench', 'test'],
      'The CLI is a client of the daemon, never a part of it.',
    ),
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
    neverImports(
      'cli-never-imports-the-core',
      '^cli/',
      ['daemon/core', 'daemon/http', 'daemon/store'],
      "The command-line tool and the agent server are clients of the daemon's HTTP API and private channel. What they share with the daemon lives in protocol/, common/, or a named daemon module outside core/, http/ and store/ (the support folder, the presenters' names, the login service, and daemon.ts for `notifier daemon`).",
    ),
    neverImports(
      'relay-never-imports-the-daemon',
      '^relay/',
      ['daemon', 'cli', 'tray', 'templates-renderer', 'bench', 'test'],
      'The relay is a separate service: it shares only the wire contract (protocol/).',
    ),
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
    neverImports(
      'app-depends-only-on-protocol',
      '^app/',
      ['daemon', 'cli', 'tray', 'templates-renderer', 'relay', 'bench', 'test', 'scripts', 'clients'],
      "app/ is the person's web app, built for the browser: it imports protocol/ (the contract's types and rules), its own files and its packages, nothing else of the project.",
    ),
    {
      name: 'nothing-imports-the-app',
      comment:
        "The daemon serves the built files of app/ (dist/app/); no other code imports its sources (but a unit test of its browser-free logic, named *-store or *-model: the History store, the models' order of answers).",
      severity: 'error',
      from: { pathNot: '^(app/|test/app/[a-z-]*(store|model)\\.test\\.ts$)' },
      to: { path: '^app/' },
    },
    neverImports('product-code-never-imports-tests', PRODUCT, ['test', 'bench']),
    neverImports(
      'product-code-never-imports-the-harness',
      PRODUCT,
      ['rigs'],
      'rigs/ is the harness the tests and the benchmarks share (PostgreSQL, Chromium, D-Bus, the desktop, the relay as a process): it starts what the product is tested on, and nothing that ships imports it.',
    ),
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
