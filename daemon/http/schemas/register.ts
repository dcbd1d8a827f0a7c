// The schema moved to protocol/schemas/register.ts (the wire contract). This file keeps the modules that still import it
// from here (the agent server's tools, its test) working until they import it from there.
export * from '../../../protocol/schemas/register.js';
