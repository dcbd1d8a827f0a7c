// What the person can take back from the window for a short while (docs/app.md#undo): a deletion, a Mark all read,
// a dismissal. The change is made at once and for good, as if there were no Undo; what would take it back is kept
// here, in memory, under a random token the answer gives the window. The window offers Undo for 10 seconds; the
// token lasts a little longer, so an Undo pressed at the last moment still finds it. A daemon that stops forgets
// them all: the changes stand, which is what the person asked for (and their window is signed out anyway).

import { randomBytes } from 'node:crypto';

/** How long a token can be used. */
export const UNDO_KEPT_MS = 30_000;

interface Kept {
  undo: () => Promise<void>;
  /** What the kept change holds is let go (a deleted record's picture): after the undo, or once it expired. */
  forget: () => void;
  timer: NodeJS.Timeout;
}

export class UndoShelf {
  private readonly kept = new Map<string, Kept>();

  /** Keeps what takes a change back; the token that does it. */
  keep(undo: () => Promise<void>, forget: () => void = () => undefined): string {
    const token = randomBytes(16).toString('base64url');
    const timer = setTimeout(() => this.drop(token), UNDO_KEPT_MS);
    timer.unref();
    this.kept.set(token, { undo, forget, timer });
    return token;
  }

  /** Takes the change back, once; false when the token is unknown (used, expired, or from before a restart). */
  async undo(token: string): Promise<boolean> {
    const kept = this.kept.get(token);
    if (!kept) return false;
    this.kept.delete(token);
    clearTimeout(kept.timer);
    try {
      await kept.undo();
    } finally {
      kept.forget();
    }
    return true;
  }

  /** The daemon stops: nothing can be taken back any more, and what was kept for it is let go (a picture). */
  close(): void {
    for (const token of [...this.kept.keys()]) {
      clearTimeout(this.kept.get(token)!.timer);
      this.drop(token);
    }
  }

  private drop(token: string): void {
    const kept = this.kept.get(token);
    this.kept.delete(token);
    kept?.forget();
  }
}
