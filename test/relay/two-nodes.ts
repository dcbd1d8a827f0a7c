// Two relay processes on one new PostgreSQL database, with one secret (docs/relay.md, "Several nodes"): what the
// scale-out tests start each case with. Each test file stops its nodes after all its cases.

import { afterAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../helpers/postgres.js';
import { startRelay, type RelayProcess } from '../helpers/relay.js';

/** Two nodes, and their database. */
export interface TwoNodes {
  a: RelayProcess;
  b: RelayProcess;
  databaseUrl: string;
}

/** Call once per test file: a function that starts two nodes (`env` given to both), stopped after all the cases. */
export function useTwoNodes(): (env?: Record<string, string>) => Promise<TwoNodes> {
  const nodes: RelayProcess[] = [];
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  });
  return async (env) => {
    const databaseUrl = await createDatabase();
    const secret = randomBytes(32).toString('hex');
    const a = await startRelay({ backend: 'postgres', databaseUrl, secret, env });
    const b = await startRelay({ backend: 'postgres', databaseUrl, secret, env });
    nodes.push(a, b);
    return { a, b, databaseUrl };
  };
}
