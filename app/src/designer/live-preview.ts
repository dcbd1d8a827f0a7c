// The Designer's live preview: `request()` after every change; a drawing starts once typing pauses, never two at
// once — a change while one draws waits for it, then the newest text is drawn. The picture is replaced only when the
// new one is ready (the designer model keeps the last one meanwhile).

import type { Clock } from '../models/dependencies.js';
import { type DesignerModel, parsed, sampleMessage } from '../models/designer.js';
import { isAbort } from '../models/requests.js';

/** The preview waits for typing to pause this long: short, since a 3×3 card takes the renderer a few ms to draw. */
export const PREVIEW_DEBOUNCE_MS = 40;
/** An old picture's address is let go this long after the new one replaced it (once the new one is painted). */
const REVOKE_AFTER_MS = 1000;

export class LivePreview {
  private cancel = (): void => undefined;
  private inFlight = false;
  private again = false;

  constructor(
    private readonly designer: DesignerModel,
    private readonly clock: Clock,
    private readonly onProblems: () => void,
  ) {}

  request(): void {
    this.cancel();
    this.cancel = this.clock.after(PREVIEW_DEBOUNCE_MS, () => void this.draw());
  }

  stop(): void {
    this.cancel();
  }

  private async draw(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const { edited, editedText, sampleText, sampleProblem, picture, marks, drawing } = this.designer;
    if (edited.value.kind !== 'template') return;
    const template = parsed(editedText.value);
    const data = parsed(sampleText.value);
    if (!template) return; // the editor marks where it stops being JSON
    if (data === null && sampleText.value.trim() !== '') {
      sampleProblem.value = 'The sample data is not valid JSON: write an object such as {"title": "Hello"}.';
      return;
    }
    this.inFlight = true;
    drawing.value = true;
    try {
      const drawn = await this.designer.drawPicture(template, data ?? undefined);
      if ('blob' in drawn) {
        const old = picture.value;
        picture.value = URL.createObjectURL(drawn.blob);
        if (old) this.clock.after(REVOKE_AFTER_MS, () => URL.revokeObjectURL(old));
        marks.value = [];
        sampleProblem.value = '';
      } else {
        marks.value = drawn.problems;
        sampleProblem.value = '';
      }
      this.onProblems();
    } catch (error) {
      if (!isAbort(error)) sampleProblem.value = sampleMessage(error);
    } finally {
      this.inFlight = false;
      drawing.value = false;
      if (this.again) {
        this.again = false;
        void this.draw();
      }
    }
  }
}
