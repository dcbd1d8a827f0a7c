// A small HTTP client for the benchmarks: one kept-alive connection, requests one after another.

import http from 'node:http';

export interface Answer {
  status: number;
  body: string;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request; `fresh` uses a new connection (for polling a server that is starting). */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; fresh?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: options.fresh ? false : keepAlive },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
