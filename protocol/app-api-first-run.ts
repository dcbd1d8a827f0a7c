// The first-run view of the person's app (docs/app.md#the-first-run-view): what History shows while it is empty,
// including how a script sends a notification to this daemon. Imports nothing.

/** `GET /app/api/first-run`: where a script reaches this daemon. Never the token itself: only the file it is in. */
export interface FirstRunAnswer {
  /** The port the daemon listens on now (`http://127.0.0.1:<port>`). */
  port: number;
  /** The absolute path of the API token's file in the support folder (`<support>/token`). */
  tokenFile: string;
}

export const firstRunPaths = {
  firstRun: '/app/api/first-run',
} as const;
