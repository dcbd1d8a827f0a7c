import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { SearchIndex } from '../../../../daemon/core/history/history-search.js';
import { sniffImage } from '../../../../daemon/core/media/image-sniff.js';
import { foldForSearch, queryWords } from '../../../../protocol/search-text.js';
import type { HistoryRecord } from '../../../../protocol/types.js';
import { safeFileName } from '../../../../daemon/store/safe-name.js';
import { IMAGES } from '../../../helpers/support.js';

const record = (id: string, title: string, subtitle?: string, body?: string): HistoryRecord => ({
  id,
  app: 'a',
  deliveredAt: '2026-01-01T00:00:00.000Z',
  notification: { app: 'a', id, title, ...(subtitle ? { subtitle } : {}), ...(body ? { body } : {}) },
});
const ids = (found: Iterable<HistoryRecord>) => [...found].map((r) => r.id);

describe('folding for search', () => {
  test.each([
    ['Café Crème', 'cafe creme'],
    ['DÉPLOIEMENT RÉUSSI', 'deploiement reussi'],
    ['İstanbul', 'istanbul'],
    ['naïve Ångström', 'naive angstrom'],
    ['plain ASCII', 'plain ascii'],
  ])('%s -> %s', (text, folded) => expect(foldForSearch(text)).toBe(folded));

  test('query words are split on any white space and folded', () => {
    expect(queryWords('  Deploy\tCAFÉ\nnow ')).toEqual(['deploy', 'cafe', 'now']);
    expect(queryWords('   ')).toEqual([]);
  });
});

describe('the search index of one app', () => {
  const records = [
    record('r0', 'Deploy started', 'staging'),
    record('r1', 'Build passed', undefined, 'deploy next'),
    record('r2', '한국 서버', 'deploy'), // decomposes into more characters when folded
    record('r3', 'Deploy finished', 'production'),
    record('r4', 'foo', 'bar'),
  ];
  const index = new SearchIndex(records);
  const all = () => true;

  test('finds records holding every word, newest first', () => {
    expect(ids(index.matches(['deploy'], all))).toEqual(['r3', 'r2', 'r1', 'r0']);
    expect(ids(index.matches(['deploy', 'production'], all))).toEqual(['r3']);
    expect(ids(index.matches(['staging', 'deploy'], all))).toEqual(['r0']);
  });

  test('record boundaries hold even when folding changes lengths', () => {
    expect(ids(index.matches(['passed', 'deploy'], all))).toEqual(['r1']);
    expect(ids(index.matches(['finished'], all))).toEqual(['r3']);
  });

  test('a word never spans two fields or two records', () => {
    expect(ids(index.matches(['foobar'], all))).toEqual([]);
    expect(ids(index.matches(['productionfoo'], all))).toEqual([]);
  });

  test('words must be in the same record, and the filter applies', () => {
    expect(ids(index.matches(['staging', 'production'], all))).toEqual([]);
    expect(ids(index.matches(['deploy'], (r) => r.id !== 'r3'))).toEqual(['r2', 'r1', 'r0']);
  });

  test('control characters in a record cannot break the boundaries', () => {
    const tricky = new SearchIndex([record('x', 'a\u0001b'), record('y', 'target')]);
    expect(ids(tricky.matches(['target'], all))).toEqual(['y']);
    expect(ids(tricky.matches(['b'], all))).toEqual(['x']);
  });
});

describe('image sniffing', () => {
  test.each(['png', 'jpg', 'gif', 'webp', 'tiff', 'bmp', 'heic', 'avif'])('the %s fixture is a %s', (format) => {
    expect(sniffImage(readFileSync(path.join(IMAGES, `sample.${format}`)))).toBe(format);
  });

  test.each([
    ['text', Buffer.from('just some words, nothing more')],
    ['too short', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['"BM" text', Buffer.from('BM is not a bitmap header in this sentence')],
    ['an MP4 (ftyp isom)', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\0\0isomiso2')])],
    ['a WAV (RIFF WAVE)', Buffer.from('RIFF\x24\0\0\0WAVEfmt ')],
  ])('%s is not a picture', (_what, bytes) => expect(sniffImage(bytes)).toBeNull());
});

describe('file names from ids', () => {
  test('plain lower-case ids map to themselves', () => {
    expect(safeFileName('com.example.app-1_x')).toBe('com.example.app-1_x');
  });

  test.each(['../up', '/abs', '..', '.', 'a/b', 'a\\b', '.hidden', '-rf', 'Upper', 'with space', 'nul\u0000', 'é', ''])(
    '%j becomes a safe name of its own',
    (id) => {
      const name = safeFileName(id);
      expect(name).toMatch(/^[a-z0-9_][a-z0-9._-]*$/);
      expect(name).not.toBe(id);
      expect(['.', '..']).not.toContain(name);
    },
  );

  test('ids differing only in case or in unsafe characters get different names', () => {
    const names = ['App', 'app', 'a/p', 'a\\p', 'a p', 'a_p'].map(safeFileName);
    expect(new Set(names).size).toBe(names.length);
  });

  test('very long ids give bounded names', () => {
    expect(safeFileName('x'.repeat(500)).length).toBeLessThanOrEqual(113);
  });
});
