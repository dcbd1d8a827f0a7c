// Reading a body's Markdown (protocol/markdown.ts): every banner, History row, card and spoken body reads it, on the
// notify path. Bodies of a typical size and the longest a body may be (protocol/limits.ts), in the shapes that cost
// the reader most (many tiny runs, many list items, unclosed brackets).
//   npm run bench:markdown [-- --rounds 15]
//
// Baseline, same run, same bodies: JSON.parse of the body written as a JSON string, one linear pass over the same
// characters by V8's own parser. The kinds take turns round by round, so a machine that slows down slows them alike.
// Bodies are counted in characters here (ASCII: one byte each). Target: the longest body in its worst shape read in under 5 ms, half of bench:bus's budget for a whole notify.

import { performance } from 'node:perf_hooks';
import { parseBlocks, parseMarkdown } from '../protocol/markdown.js';
import { NOTIFY_FIELD_BYTES } from '../protocol/limits.js';
import { defineBenchmark } from './lib.js';
import { median, printTable, ratio, verdict } from './kit/print.js';

const WORST_TARGET_MS = 5;
/** Each timing repeats the reading until it has taken at least this long, so short bodies are measured at all. */
const MIN_SAMPLE_MS = 20;

const longest = (unit: string): string => unit.repeat(Math.ceil(NOTIFY_FIELD_BYTES.body / unit.length)).slice(0, NOTIFY_FIELD_BYTES.body);

const BODIES: Array<{ name: string; text: string; worst?: boolean }> = [
  { name: 'one line with bold and a link', text: 'Build **812** passed on `main`: [open the run](https://ci.example/812).' },
  {
    name: 'every block kind (an agent summary)',
    text: [
      '## Deploy summary',
      'The **api** service is live; run `make verify` next.',
      '- 12 servers updated',
      '- 0 errors',
      '  - 2 warnings',
      '1. check the dashboard',
      '2. close the ticket',
      '> Rolled out behind the flag.',
      '```sh',
      'kubectl rollout status deploy/api',
      '```',
      '---',
      'Reply **yes** to promote.',
    ].join('\n'),
  },
  { name: `${NOTIFY_FIELD_BYTES.body} characters of "\`a "`, text: longest('`a '), worst: true },
  { name: `${NOTIFY_FIELD_BYTES.body} characters of "- a" items`, text: longest('- a\n\n'), worst: true },
  { name: `${NOTIFY_FIELD_BYTES.body} characters of "["`, text: longest('['), worst: true },
  { name: `${NOTIFY_FIELD_BYTES.body} characters of "**a"`, text: longest('**a'), worst: true },
];

/** Milliseconds one call of `read` takes, from enough calls to last MIN_SAMPLE_MS. */
function timeOne(read: () => unknown): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    read();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < MIN_SAMPLE_MS);
  return elapsed / calls;
}

await defineBenchmark({
  title: "Notifier benchmark: reading a body's Markdown",
  options: { rounds: 15 },
  needs: {},
  async measure({ options: { rounds } }) {
    const samples = BODIES.map(() => ({ reader: [] as number[], baseline: [] as number[] }));
    for (let round = 0; round < rounds + 1; round++) {
      for (const [index, body] of BODIES.entries()) {
        const json = JSON.stringify(body.text);
        const baseline = timeOne(() => JSON.parse(json));
        // What the notify path does with a body: its blocks (History's details, cards) and its runs (banners, speech).
        const reader = timeOne(() => (parseBlocks(body.text), parseMarkdown(body.text)));
        if (round === 0) continue; // the warm-up round: V8 optimises both first
        samples[index]!.reader.push(reader);
        samples[index]!.baseline.push(baseline);
      }
    }
    const micro = (value: number): string => `${(value * 1000).toFixed(value < 0.01 ? 2 : 1)} µs`;
    console.log(`\n${rounds} rounds, taking turns; each figure the median of the rounds`);
    printTable([
      ['body', 'blocks + runs', 'JSON.parse (baseline)', 'vs baseline'],
      ...BODIES.map((body, index) => {
        const { reader, baseline } = samples[index]!;
        return [body.name, micro(median(reader)), micro(median(baseline)), ratio(median(reader) / median(baseline))];
      }),
    ]);
    const worst = Math.max(...BODIES.flatMap((body, index) => (body.worst ? [median(samples[index]!.reader)] : [])));
    console.log(
      `\nthe longest body in its worst shape: ${worst.toFixed(2)} ms (target < ${WORST_TARGET_MS} ms: ${verdict(worst < WORST_TARGET_MS)})`,
    );
  },
});
