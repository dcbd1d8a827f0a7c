// Statistics and printing: how every benchmark states its figures.

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const median = (samples: number[]): number => percentile(samples, 50);

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const int = (value: number): string => Math.round(value).toLocaleString('en-US');
export const ratio = (value: number): string => `${value.toFixed(2)}x`;
export const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/**
 * Prints a latency table: for each scenario (its name and samples in milliseconds) p50, p99, max, and its p50
 * against the first row's, the baseline measured in the same run.
 */
export function printLatencies(rows: Array<[string, number[]]>): void {
  const base = percentile(rows[0]![1], 50);
  printTable([
    ['scenario', 'p50', 'p99', 'max', 'p50 vs baseline'],
    ...rows.map(([name, samples]) => [
      name,
      ms(percentile(samples, 50)),
      ms(percentile(samples, 99)),
      ms(Math.max(...samples)),
      ratio(percentile(samples, 50) / base),
    ]),
  ]);
}

/** Prints a table of p50, p90 and p99 (milliseconds) for each row's samples. */
export function printPercentiles(rows: Array<[string, number[]]>): void {
  printTable([
    ['measured', 'p50', 'p90', 'p99'],
    ...rows.map(([name, samples]) => [name, ...[50, 90, 99].map((p) => ms(percentile(samples, p)))]),
  ]);
}

/**
 * Prints, indented under a heading line, n, p50, p90 and p99 of each row's samples and its p50 against GET
 * /v1/health's, measured in the same run: a first row of its own. `what` heads the first column.
 */
export function printAgainstHealth(what: string, health: number[], rows: Array<[string, number[]]>): void {
  const row = (name: string, samples: number[]) => [
    name,
    String(samples.length),
    ...[50, 90, 99].map((p) => ms(percentile(samples, p))),
    ratio(percentile(samples, 50) / percentile(health, 50)),
  ];
  printTable(
    [
      [what, 'n', 'p50', 'p90', 'p99', 'p50 / health'],
      row('GET /v1/health (baseline)', health),
      ...rows.map(([name, samples]) => row(name, samples)),
    ],
    '    ',
  );
}

/** Prints rows as a table with aligned columns, each line indented by `indent`; the first row is the header. */
export function printTable(rows: string[][], indent = ''): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]): string =>
    indent +
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  console.log(line(rows[0]!));
  console.log(indent + widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}
