// `notifier-relay check`: is this configuration one the relay would start with, does its database answer, where
// does the schema stand, and what would /ready say — for a deployment script or an operator after an upgrade,
// without starting a relay. Exit 0 only when /ready would say 200.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, SECRET_FILE, type RelayConfig } from '../config.js';
import { Readiness } from '../http/ready.js';
import { configureLog, DEFAULT_LOG_SETTINGS } from '../log.js';
import { schemaStatus, type SchemaStatus } from '../store/migrate.js';
import { openDatabase, storageName } from './database.js';

export interface CheckReport {
  ready: boolean;
  configuration: { valid: boolean; problems: string[] };
  storage?: string;
  secret?: 'RELAY_SECRET' | 'kept in the data folder' | 'none yet';
  database?: { answers: boolean; problem?: string };
  schema?: SchemaStatus;
  /** What /ready would answer: undefined when ready, else its 503 message. */
  readyProblem?: string;
}

export async function check(env: NodeJS.ProcessEnv): Promise<CheckReport> {
  let config: RelayConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ready: false, configuration: { valid: false, problems: error.problems } };
  }
  const report: CheckReport = {
    ready: false,
    configuration: { valid: true, problems: [] },
    storage: storageName(config),
    secret: secretSource(config),
  };
  const opened = openDatabase(config);
  if (!opened) {
    report.database = { answers: false, problem: 'there is no database yet: the relay makes it at its first start' };
    report.readyProblem = 'the database does not answer';
    return report;
  }
  try {
    report.schema = await schemaStatus(opened.db, opened.dialect);
    report.database = { answers: true };
  } catch (error) {
    report.database = { answers: false, problem: (error as Error).message || String(error) };
  }
  // The very question /ready asks (relay/http/ready.ts), with its time limit and its words.
  report.readyProblem = await new Readiness(opened).problem();
  report.ready = report.readyProblem === undefined;
  await opened.close();
  return report;
}

/** Not a readiness matter, but worth seeing: without RELAY_SECRET, every node must share the data folder's. */
function secretSource(config: RelayConfig): CheckReport['secret'] {
  if (config.secret !== undefined) return 'RELAY_SECRET';
  return existsSync(path.join(config.dataDir, SECRET_FILE)) ? 'kept in the data folder' : 'none yet';
}

/** The report as lines for a person. */
export function describe(report: CheckReport): string[] {
  if (!report.configuration.valid)
    return ['configuration: not valid', ...report.configuration.problems.map((problem) => `  - ${problem}`), 'ready: no'];
  const lines = ['configuration: valid', `storage: ${report.storage}`, `secret: ${describeSecret(report.secret)}`];
  lines.push(`database: ${report.database?.answers ? 'answers' : `does not answer (${report.database?.problem})`}`);
  if (report.schema) lines.push(`schema: ${describeSchema(report.schema)}`);
  lines.push(report.ready ? 'ready: yes (/ready would answer 200)' : `ready: no (/ready would answer 503: ${report.readyProblem})`);
  return lines;
}

function describeSecret(secret: CheckReport['secret']): string {
  if (secret === 'RELAY_SECRET') return 'from RELAY_SECRET';
  if (secret === 'kept in the data folder') return `RELAY_SECRET is not set: the one kept in the data folder (${SECRET_FILE})`;
  return 'RELAY_SECRET is not set and none is kept yet: the relay makes one at its first start';
}

function describeSchema(schema: SchemaStatus): string {
  if (schema.state === 'current') return `current (${schema.known} migrations)`;
  if (schema.state === 'behind')
    return `behind: ${schema.missing.length} of ${schema.known} migrations not run yet (the relay runs them when it starts)`;
  return `newer than this relay knows (it has migration ${schema.unknown.join(', ')}): run the newer relay version, or restore the backup taken before the upgrade`;
}

/** The command's action: the lines (or JSON), and the exit code. */
export async function runCheck(options: { json?: boolean }): Promise<number> {
  configureLog({ ...DEFAULT_LOG_SETTINGS, level: 'silent' }); // what the log would say (the database's error) is in the report
  const report = await check(process.env);
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `${describe(report).join('\n')}\n`);
  return report.ready ? 0 : 1;
}
