/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';
import base from './jest.config';

// `npm run test:package`: Notifier packed and installed as a person installs it (test/package/, docs/install.md).
// Apart from `npm test` because packing and installing take minutes (npm builds the native parts); CI runs both.
const config: Config = {
  ...base,
  roots: ['<rootDir>/test/package'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 120_000,
};

export default config;
