import type { Response } from 'express';

/** The one way a JSON answer is written (no ETag or freshness work: every answer is fresh). */
export function sendJSON(res: Response, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
