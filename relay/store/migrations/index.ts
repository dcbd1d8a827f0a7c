// The relay's migrations, in order. Kysely's Migrator runs the ones a database has not had yet (and, on
// PostgreSQL, takes a lock first, so several nodes starting together migrate once). Never edit one that has
// shipped: add the next number instead.

import type { Migration } from 'kysely';
import type { Dialect } from '../backend.js';
import { initial } from './001-initial.js';
import { oauth } from './002-oauth.js';
import { events } from './003-events.js';
import { codesAtRest } from './004-codes-at-rest.js';

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-oauth': oauth(),
    '003-events': events(),
    '004-codes-at-rest': codesAtRest(),
  };
}
