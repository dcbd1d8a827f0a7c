// The private session bus and the fake notification server live with the benchmarks, which use them too.
export * from '../../bench/rigs/session-bus.js';
