// Copying a value the person needs elsewhere (a key shown once, a ready-made set-up): to the clipboard, and the
// status line says so; where the browser refuses (no permission, no secure context), it says how to copy by hand.

import type { StatusModel } from '../models/status.js';

export async function copyText(status: StatusModel, text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.say(`${what} was copied.`);
  } catch {
    status.sayError(new Error(`${what} could not be copied here: select it and press Ctrl+C`));
  }
}
