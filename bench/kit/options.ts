// The command line of a benchmark: `--name value` options and `--name` flags.

/** `--name value` from the command line. */
export function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** A benchmark's options, each with its default: a number, a string (empty: not given) or a flag (false). */
export type OptionDefaults = Record<string, number | string | boolean>;

/** The options as read: numbers, strings and flags, named as declared. */
export type ReadOptions<O extends OptionDefaults> = {
  [K in keyof O]: O[K] extends number ? number : O[K] extends string ? string : boolean;
};

/** `cpuProf` is `--cpu-prof` on the command line. */
const onCommandLine = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Reads each declared option from the command line, or takes its default; a number that is not one is refused. */
export function readOptions<O extends OptionDefaults>(defaults: O): ReadOptions<O> {
  const read: Record<string, number | string | boolean> = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    const flag = onCommandLine(name);
    if (typeof fallback === 'boolean') {
      read[name] = process.argv.includes(`--${flag}`) || fallback;
      continue;
    }
    const given = option(flag);
    if (given === undefined) read[name] = fallback;
    else if (typeof fallback === 'string') read[name] = given;
    else if (Number.isFinite(Number(given)) && given.trim() !== '') read[name] = Number(given);
    else throw new Error(`--${flag} takes a number, not "${given}"`);
  }
  return read as ReadOptions<O>;
}

/** How to call a benchmark: its options with their defaults, for --help. */
export function usage(defaults: OptionDefaults): string {
  const listed = Object.entries(defaults).map(([name, fallback]) =>
    typeof fallback === 'boolean' ? `[--${onCommandLine(name)}]` : `[--${onCommandLine(name)} ${fallback === '' ? '<value>' : fallback}]`,
  );
  return listed.length > 0 ? `options (defaults shown): ${listed.join(' ')}` : 'no options';
}
