// The live event hub of the person's app (daemon/http/person-app/events.ts) on its own: a stream whose window stopped
// reading is cut once it holds too much unsent, instead of the daemon keeping every event for it.

import { EventEmitter } from 'node:events';
import { describe, expect, test } from '@jest/globals';
import type { Request, Response } from 'express';
import type { RowMaker } from '../../../../daemon/core/history/rows.js';
import type { Core } from '../../../../daemon/core/core.js';
import { EventHub, STALLED_STREAM_BYTES } from '../../../../daemon/http/window/events.js';
import type { Session, Sessions } from '../../../../daemon/http/window/sessions.js';

const never = () => () => undefined;

/** The parts of the core the hub listens to, quiet. */
const core = {
  history: { onChange: never },
  readState: { onChange: never, unreadCount: () => 0 },
  approvals: { onChange: never, openQuestions: () => [] },
  relay: { connectors: { onChange: never } },
  designs: { onChange: never },
} as unknown as Core;
const sessions = { onEnd: never, isOpen: () => true } as unknown as Sessions;

/** A response whose reader never reads: everything written stays buffered. */
class StalledResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  ended = false;
  writeHead(): this {
    return this;
  }
  write(text: string): boolean {
    this.writableLength += Buffer.byteLength(text);
    return false;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

describe('live events', () => {
  test('a stream that stopped reading is cut past its limit; one that reads goes on', () => {
    const hub = new EventHub(core, {} as RowMaker, sessions, () => ({ questions: [], granted: [], denied: [], connectors: [] }));
    const request = { socket: { setNoDelay: () => undefined } } as unknown as Request;
    const stalled = new StalledResponse();
    const reading = new StalledResponse();
    hub.subscribe(request, stalled as unknown as Response, {} as Session);
    hub.subscribe(request, reading as unknown as Response, {} as Session);
    const unread = { unread: 1, seq: 0 };
    while (!stalled.destroyed) {
      reading.writableLength = 0; // this one's reader keeps up
      hub.send('unread', unread);
      expect(stalled.writableLength).toBeLessThan(STALLED_STREAM_BYTES + 1024);
    }
    const written = stalled.writableLength;
    hub.send('unread', unread);
    expect(stalled.writableLength).toBe(written); // cut: nothing more is written to it
    expect(reading.destroyed).toBe(false);
    expect(reading.writableLength).toBeGreaterThan(0);
    hub.close();
    expect(reading.ended).toBe(true);
  });
});
