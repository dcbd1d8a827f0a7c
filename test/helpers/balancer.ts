// A small TCP load balancer for tests of several relay nodes (test/relay/rolling-restart.test.ts): each new
// connection goes to the next backend, round-robin, among those whose `/ready` answered 200 at the last check.
// Like a real balancer it does not retry a connection the backend refuses or drops: the client sees it fail.

import http from 'node:http';
import net from 'node:net';
import { waitFor } from '../../rigs/wait.js';

/** How often each backend's /ready is asked (a real balancer's health check, made short for a test). */
export const HEALTH_CHECK_MS = 100;
/** A /ready that has not answered by then counts as not ready. */
const HEALTH_TIMEOUT_MS = 1000;

export class Balancer {
  /** The backends whose last /ready was 200. */
  private readonly ready = new Set<number>();
  /** Backends whose check is under way (a slow one is not asked again meanwhile, so answers stay in order). */
  private readonly checking = new Set<number>();
  private readonly sockets = new Set<net.Socket>();
  private readonly timer: NodeJS.Timeout;
  private next = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly backends: readonly number[],
  ) {
    this.timer = setInterval(() => this.checkAll(), HEALTH_CHECK_MS);
  }

  /** Listens on a free loopback port in front of the relay nodes on `backends` (their ports). */
  static async start(backends: readonly number[]): Promise<Balancer> {
    let balancer!: Balancer;
    const server = net.createServer((client) => balancer.forward(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    balancer = new Balancer(server, (server.address() as net.AddressInfo).port, backends);
    await Promise.all(backends.map((port) => balancer.waitReady(port)));
    return balancer;
  }

  /** Whether the balancer sends new connections to `port`. */
  isReady(port: number): boolean {
    return this.ready.has(port);
  }

  /** Resolves once the balancer sends new connections to `port` (its /ready answered 200). */
  waitReady(port: number, timeoutMs = 20_000): Promise<true> {
    return waitFor(() => this.isReady(port) || undefined, `the balancer to see port ${port} ready`, timeoutMs);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(client: net.Socket): void {
    this.track(client);
    const ready = this.backends.filter((port) => this.ready.has(port));
    if (ready.length === 0) return void client.destroy(); // no backend: the client's connection fails
    const port = ready[this.next++ % ready.length]!;
    const backend = net.connect(port, '127.0.0.1');
    this.track(backend);
    client.pipe(backend).on('error', () => undefined);
    backend.pipe(client).on('error', () => undefined);
    // Either side failing or closing ends the other: nothing is retried mid-stream.
    client.once('close', () => backend.destroy());
    backend.once('close', () => client.destroy());
    client.on('error', () => backend.destroy());
    backend.on('error', () => client.destroy());
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private checkAll(): void {
    for (const port of this.backends) {
      if (this.checking.has(port)) continue;
      this.checking.add(port);
      void isReady(port).then((ready) => {
        this.checking.delete(port);
        if (ready) this.ready.add(port);
        else this.ready.delete(port);
      });
    }
  }
}

/** One health check: GET /ready, 200 or not (a refused or silent backend is not ready). */
function isReady(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/ready', agent: false, timeout: HEALTH_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
