// The Designer's state, kept while the person visits other pages: what is open in the editor, the sample data, the
// picture, and the live preview — debounced, at most one drawing in flight, the last picture kept while a new one
// draws.

import { signal } from '@preact/signals';
import { OWN_APP } from '../../../protocol/app-api.js';
import { designerPaths, type DesignerLibrary, type DesignerProblem, type DesignerProblems } from '../../../protocol/app-api-designer.js';
import { ApiProblem, call, isAbort, messageOf, send } from '../api.js';
import { shownTheme } from '../theme.js';

/** The preview waits for typing to pause this long: short, since a 3×3 card takes the renderer a few ms to draw. */
export const PREVIEW_DEBOUNCE_MS = 40;

export type EditedKind = 'template' | 'manifest';

export interface Edited {
  kind: EditedKind;
  /** What the heading says is open: `hero copy (notifier)`. */
  title: string;
}

/** A problem with its severity; `at` for the JSON's own problem (a place in the text, not a path). */
export type Marked = DesignerProblem & { severity: 'error' | 'warning'; at?: number };

/** A first template for a new design: three rows, three columns. */
export const STARTER = {
  app: OWN_APP,
  name: 'my card',
  grid: { rows: 3, cols: 3, colSizes: ['auto', 'fill', 'auto'] },
  cells: [
    { id: 'icon', row: 0, col: 0, component: { type: 'issuerIcon', size: 28 } },
    { id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title' } },
    { id: 'time', row: 0, col: 2, component: { type: 'timestamp' } },
    { id: 'body', row: 1, col: 1, colSpan: 2, component: { type: 'text', binding: '{body}' } },
    { id: 'buttons', row: 2, col: 0, colSpan: 3, component: { type: 'actions' } },
  ],
};

export const STARTER_SAMPLE = { title: 'Build 812 passed', body: 'All 1,204 tests passed in 3 min 12 s.' };

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export const edited = signal<Edited>({ kind: 'template', title: 'my card (notifier)' });
export const editedText = signal(pretty(STARTER));
export const sampleText = signal(pretty(STARTER_SAMPLE));
/** The last picture drawn (a blob: address), kept while the next one draws. */
export const picture = signal('');
export const drawing = signal(false);
/** The template's problems, each at its place; or the sample data's problem. */
export const marks = signal<Marked[]>([]);
export const sampleProblem = signal('');
/** What Save was refused for (a reserved name…), and the text it was refused: marked while the text is that one. */
export const refusedSave = signal<{ text: string; marks: Marked[] } | null>(null);

/** The problems to show: Save's refusal while the text is the one refused, and the preview's. */
export function shownMarks(): Marked[] {
  const refused = refusedSave.value;
  return [...(refused && refused.text === editedText.value ? refused.marks : []), ...marks.value];
}
export const library = signal<DesignerLibrary | null>(null);

/** The edited JSON as an object, or null when it is not JSON (the editor marks where). */
export function parsed(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The app the open template or manifest is for (its assets are listed): its `app`, else Notifier's own. */
export function editedApp(): string {
  const app = parsed(editedText.value)?.app;
  return typeof app === 'string' && app !== '' ? app : OWN_APP;
}

export async function loadLibrary(): Promise<void> {
  library.value = await call<DesignerLibrary>('GET', designerPaths.library);
}

/** The template's problems from a 400, else null (another refusal). */
export function problemsOf(error: unknown): Marked[] | null {
  if (!(error instanceof ApiProblem) || error.code !== 'invalid_template') return null;
  const given = error.answer as DesignerProblems | undefined;
  if (!given?.problems) return [{ path: '', message: error.message, severity: 'error' }];
  return [
    ...given.problems.map((problem) => ({ ...problem, severity: 'error' as const })),
    ...given.warnings.map((problem) => ({ ...problem, severity: 'warning' as const })),
  ];
}

/** POST preview: the PNG, or the template's problems (400 with their places); another refusal is thrown. */
export async function drawPicture(
  template: Record<string, unknown>,
  data: Record<string, unknown> | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<{ blob: Blob } | { problems: Marked[] }> {
  try {
    const reply = await send('POST', designerPaths.preview, { template, ...(data ? { data } : {}), theme: shownTheme() }, options);
    return { blob: await reply.blob() };
  } catch (error) {
    const problems = problemsOf(error);
    if (problems) return { problems };
    throw error;
  }
}

/**
 * The live preview: `request()` after every change; a drawing starts once typing pauses, never two at once — a
 * change while one draws waits for it, then the newest text is drawn. The picture is replaced only when the new one
 * is ready.
 */
export class LivePreview {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private again = false;

  constructor(private readonly onProblems: (marks: Marked[]) => void) {}

  request(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.draw(), PREVIEW_DEBOUNCE_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private async draw(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return;
    }
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
      const drawn = await drawPicture(template, data ?? undefined);
      if ('blob' in drawn) {
        const old = picture.value;
        picture.value = URL.createObjectURL(drawn.blob);
        if (old) setTimeout(() => URL.revokeObjectURL(old), 1000); // after the new one is painted
        marks.value = [];
        sampleProblem.value = '';
      } else {
        marks.value = drawn.problems;
        sampleProblem.value = '';
      }
      this.onProblems(marks.value);
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

/** A refusal of the sample data (`data.title`), in words. */
export function sampleMessage(error: unknown): string {
  const field = error instanceof ApiProblem ? error.field : undefined;
  const message = messageOf(error);
  return field?.startsWith('data.') ? `The sample data's ${field.slice(5)}: ${message}` : message;
}
