/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// Tests run as CommonJS compiled by swc (fast, no type-check: `tsc --noEmit` does that in `npm test`).
// lowdb and steno ship ESM only, so they are compiled too; `.js` suffixes of NodeNext imports are stripped.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The package's own test packs and installs Notifier (minutes of native builds): `npm run test:package`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/package/'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(lowdb|steno|oauth4webapi|gemoji)/)'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30_000,
  // One test file per core. Jest's default (one less than the cores) runs them one at a time on CI's two, where the
  // tests mostly wait for the processes they start: the suite took 1,152 s so, and 504-746 s with two at a time.
  maxWorkers: '100%',
  // One private PostgreSQL server for the run: the relay's tests run on it as well as on SQLite.
  globalSetup: '<rootDir>/rigs/postgres.ts',
  globalTeardown: '<rootDir>/test/helpers/postgres-teardown.ts',
};

export default config;
