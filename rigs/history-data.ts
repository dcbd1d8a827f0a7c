// A History for the benchmarks (bench:history, bench:app-history): apps of generated records written straight into
// a support folder. Titles from a subject and an outcome, bodies of 6-17 vocabulary words, some accented; about one
// record in a thousand carries one rare word (at most one per record, so two rare words never match together).

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomGenerator } from './random.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const SUBJECTS = [
  'Build',
  'Deploy',
  'Backup',
  'Release',
  'Test run',
  'Merge request',
  'Invoice',
  'Meeting',
  'Déploiement',
  'Réunion',
  'Café',
  'Sync',
  'Pipeline',
  'Report',
  'Alert',
  'Reminder',
  'Download',
  'Upload',
  'Certificate',
  'Migration',
];
const OUTCOMES = [
  'passed',
  'failed',
  'started',
  'finished',
  'cancelled',
  'scheduled',
  'réussi',
  'échoué',
  'queued',
  'delayed',
  'approved',
  'expired',
];
const WORDS = [
  'main',
  'staging',
  'production',
  'server',
  'cluster',
  'branch',
  'commit',
  'review',
  'team',
  'room',
  'tomorrow',
  'today',
  'invoice',
  'customer',
  'order',
  'payment',
  'disk',
  'memory',
  'network',
  'latency',
  'report',
  'weekly',
  'daily',
  'monthly',
  'café',
  'crème',
  'brûlée',
  'déploiement',
  'élève',
  'à',
  'côté',
  'naïve',
  'résumé',
  'über',
  'straße',
  'niño',
  'update',
  'version',
  'feature',
  'bug',
  'fix',
  'ticket',
  'calendar',
  'lunch',
  'coffee',
  'project',
  'deadline',
  'backup',
  'volume',
  'snapshot',
];
const RARE = ['kumquat', 'zeppelin', 'quasar', 'obsidian', 'marzipan', 'fjord', 'gazpacho', 'tundra', 'nebula', 'origami'];

/** Queries by category: two words each, several with accents or capitals (search folds both). */
export const QUERIES: Record<string, string[]> = {
  many: [
    'build passed',
    'main staging',
    'café réunion',
    'cafe resume',
    'Déploiement réussi',
    'server memory',
    'weekly report',
    'CRÈME brulee',
  ],
  rare: [
    'kumquat staging',
    'zeppelin café',
    'quasar server',
    'obsidian report',
    'marzipan main',
    'fjord deploy',
    'nebula memory',
    'origami team',
  ],
  none: [
    'kumquat zeppelin',
    'xylophone walrus',
    'cafe xylophone',
    'quasar nebula',
    'build walrus',
    'tundra origami',
    'lorem ipsum',
    'fjord gazpacho',
  ],
};

/** The same History on every run. */
const random = randomGenerator(20261120);
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;

function message(): { title: string; body: string } {
  const title =
    random() < 0.5 ? `${pick(SUBJECTS)} ${1 + Math.floor(random() * 2000)} ${pick(OUTCOMES)}` : `${pick(SUBJECTS)} ${pick(OUTCOMES)}`;
  const words = Array.from({ length: 6 + Math.floor(random() * 12) }, () => pick(WORDS));
  if (random() < 0.001) words.splice(Math.floor(random() * words.length), 0, pick(RARE));
  if (random() < 0.3)
    words.push(
      '@',
      Math.floor(random() * 0xffffff)
        .toString(16)
        .padStart(6, '0'),
    );
  const body = words.join(' ');
  return { title, body: body[0]!.toUpperCase() + body.slice(1) };
}

function historyFile(app: string, now: number, recordsPerApp: number): string {
  const times = Array.from({ length: recordsPerApp }, () => now - 60_000 - Math.floor(random() * 30 * DAY_MS)).sort((a, b) => a - b);
  const records = times.map((time) => {
    const id = randomUUID().toUpperCase();
    const deliveredAt = new Date(time).toISOString();
    const { title, body } = message();
    return {
      id,
      app,
      notification: { app, id, title, body, template: 'builtin.imageLeft' },
      deliveredAt,
      fields: { title, body, app, id, appName: app, deliveredAt },
    };
  });
  return JSON.stringify({ app, records });
}

/**
 * Writes a History of `apps` apps x `recordsPerApp` records, delivered over the last 30 days, straight into a
 * support folder (and its apps.json), the same on every run.
 */
export async function generateHistory(
  supportDir: string,
  { apps: appCount, recordsPerApp }: { apps: number; recordsPerApp: number },
): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const now = Date.now();
  const apps = Array.from({ length: appCount }, (_, index) => `app-${String(index).padStart(3, '0')}`);
  await mkdir(path.join(supportDir, 'history'), { recursive: true, mode: 0o700 });
  for (const app of apps) {
    await writeFile(path.join(supportDir, 'history', `${app}.json`), historyFile(app, now, recordsPerApp), { mode: 0o600 });
  }
  await writeFile(path.join(supportDir, 'apps.json'), JSON.stringify({ apps: apps.map((app) => ({ app })) }), { mode: 0o600 });
  spawnSync('sync'); // written back to disk now, not during the cold starts
  let bytes = 0;
  for (const name of await readdir(path.join(supportDir, 'history'))) bytes += (await stat(path.join(supportDir, 'history', name))).size;
  return { bytes, ms: performance.now() - started };
}
