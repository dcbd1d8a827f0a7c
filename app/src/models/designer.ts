// The Designer's state, kept while the person visits other pages: what is open in the editor, the sample data, the
// picture of the live preview (the last one kept while a new one draws), the problems marked in the editor, the
// template library (read on every visit of the page, and again whenever a template or a manifest changes, through
// any door, while the page is open) and its card pictures (each drawn once per visit of the window, two at a time).

import { computed, createModel, signal } from '@preact/signals';
import { OWN_APP } from '../../../protocol/app-api.js';
import {
  designerPaths,
  type DesignerLibrary,
  type DesignerProblem,
  type DesignerProblems,
  type DesignJson,
} from '../../../protocol/app-api-designer.js';
import type { ApiModel } from './api.js';
import type { LiveEvents } from './dependencies.js';
import { inOrder } from './in-order.js';
import { ApiProblem, messageOf } from './requests.js';
import type { ThemeModel } from './theme.js';

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

/** The library's card pictures are drawn this many at a time: the live preview is not kept waiting behind a long library. */
const CARDS_AT_ONCE = 2;

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** The edited JSON as an object, or null when it is not JSON (the editor marks where). */
export function parsed(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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

/** A refusal of the sample data (`data.title`), in words. */
export function sampleMessage(error: unknown): string {
  const field = error instanceof ApiProblem ? error.field : undefined;
  const message = messageOf(error);
  return field?.startsWith('data.') ? `The sample data's ${field.slice(5)}: ${message}` : message;
}

export const DesignerModel = createModel((api: Pick<ApiModel, 'call' | 'send'>, theme: Pick<ThemeModel, 'shown'>, events: LiveEvents) => {
  const edited = signal<Edited>({ kind: 'template', title: 'my card (notifier)' });
  const editedText = signal(pretty(STARTER));
  const sampleText = signal(pretty(STARTER_SAMPLE));
  /** The last picture drawn (a blob: address), kept while the next one draws. */
  const picture = signal('');
  const drawing = signal(false);
  /** The template's problems, each at its place; or the sample data's problem. */
  const marks = signal<Marked[]>([]);
  const sampleProblem = signal('');
  /** What Save was refused for (a reserved name…), and the text it was refused: marked while the text is that one. */
  const refusedSave = signal<{ text: string; marks: Marked[] } | null>(null);
  const library = signal<DesignerLibrary | null>(null);
  /** Read again on every change told by the stream: an older read answered late never replaces a newer one. */
  const libraryInOrder = inOrder();
  /** The renderer's schema (GET components): what the editor completes. Read once per visit of the window. */
  const schema = signal<Record<string, unknown> | null>(null);

  /** The library's card pictures, by the template's JSON. */
  const cardPictures = new Map<string, string>();
  let cardsDrawing = 0;
  const cardsWaiting: Array<() => void> = [];

  /** POST preview: the PNG, or the template's problems (400 with their places); another refusal is thrown. */
  async function drawPicture(
    template: Record<string, unknown>,
    data: Record<string, unknown> | undefined,
    options: { signal?: AbortSignal } = {},
  ): Promise<{ blob: Blob } | { problems: Marked[] }> {
    try {
      const reply = await api.send(
        'POST',
        designerPaths.preview,
        { template, ...(data ? { data } : {}), theme: theme.shown.peek() },
        options,
      );
      return { blob: await reply.blob() };
    } catch (error) {
      const problems = problemsOf(error);
      if (problems) return { problems };
      throw error;
    }
  }

  /** Runs `draw` when fewer than CARDS_AT_ONCE library pictures are being drawn. */
  async function inCardTurn<T>(draw: () => Promise<T>): Promise<T> {
    if (cardsDrawing >= CARDS_AT_ONCE) await new Promise<void>((resolve) => cardsWaiting.push(resolve));
    cardsDrawing++;
    try {
      return await draw();
    } finally {
      cardsDrawing--;
      cardsWaiting.shift()?.();
    }
  }

  return {
    edited,
    editedText,
    sampleText,
    picture,
    drawing,
    marks,
    sampleProblem,
    refusedSave,
    library,
    schema,
    /** The problems to show: Save's refusal while the text is the one refused, and the preview's. */
    shownMarks: computed((): Marked[] => {
      const refused = refusedSave.value;
      return [...(refused && refused.text === editedText.value ? refused.marks : []), ...marks.value];
    }),
    /** The app the open template or manifest is for (its assets are listed): its `app`, else Notifier's own. */
    editedApp: computed((): string => {
      const app = parsed(editedText.value)?.app;
      return typeof app === 'string' && app !== '' ? app : OWN_APP;
    }),
    drawPicture,
    async loadLibrary(): Promise<void> {
      await libraryInOrder(api.call<DesignerLibrary>('GET', designerPaths.library), (answer) => (library.value = answer));
    },
    /**
     * While the page is open: `changed` runs whenever a template or a manifest was saved or deleted (by the API, an
     * agent, this window or another), and after the event stream was lost (what changed meanwhile was not told).
     * The answer stops following.
     */
    follow(changed: () => void): () => void {
      const stops = [events.on('templates', changed), events.onOpen((again) => again && changed())];
      return () => {
        for (const stop of stops) stop();
      };
    },
    async loadSchema(): Promise<void> {
      schema.value ??= await api.call<Record<string, unknown>>('GET', designerPaths.components);
    },
    /** A library card's picture drawn before, if it was. */
    cardPicture: (template: DesignJson): string | undefined => cardPictures.get(JSON.stringify(template)),
    /** Draws a library card's picture (in its turn), kept for the rest of the visit; null when it does not draw. */
    async drawCard(template: DesignJson): Promise<string | null> {
      const key = JSON.stringify(template);
      const drawn = await inCardTurn(() => drawPicture(template, undefined));
      if (!('blob' in drawn)) return null;
      const url = URL.createObjectURL(drawn.blob);
      cardPictures.set(key, url);
      return url;
    },
  };
});
export type DesignerModel = InstanceType<typeof DesignerModel>;
