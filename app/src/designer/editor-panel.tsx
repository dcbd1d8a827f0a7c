// The Designer's editor panel: the template (or manifest) as JSON in the code editor, its problems listed under it
// (each a button that goes to its place), and Save, Send test, New template and Delete template. `useDesignerEditor`
// makes the editor and the live preview once per visit of the page; the library, the tools and the preview panel
// act on the editor through it.

import { computed } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EditorView } from '@codemirror/view';
import { type ComposeAnswer, OWN_APP } from '../../../protocol/app-api.js';
import { designerPaths, type DesignerPreviewRequest, type DesignJson } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';
import { type EditedKind, type Marked, parsed, pretty, problemsOf, sampleMessage, STARTER } from '../models/designer.js';
import { ApiProblem, messageOf, withQuery } from '../models/requests.js';
import { pageHref } from '../models/router.js';
import { Icon } from '../ui/icon.js';
import { createEditor, insertText, placeOf, setText, showProblems, syntaxProblem, vocabularyOf } from './editor.js';
import { LivePreview } from './live-preview.js';

/** A template that names one of these runs code on this computer: the person approves it first. */
const RUNS_CODE = /"(command|script|shortcut)"\s*:/;

/** The editor of the page, as the other panels use it. */
export interface DesignerEditor {
  /** Where the editor is drawn (its shadow root). */
  host: { current: HTMLDivElement | null };
  view: { current: EditorView | null };
  preview: { current: LivePreview | null };
  /** Marks the problems in the editor: the JSON's own first, else the template's. */
  markEditor: () => void;
  /** Opens a template or a manifest: its text replaces the editor's, its problems are forgotten. */
  open: (kind: EditedKind, value: DesignJson, title: string) => void;
  /** Inserts at the cursor (a name from the tools, a picture's path). */
  insert: (text: string) => void;
}

export function useDesignerEditor(): DesignerEditor {
  const { designer, clock, status } = useModels();
  const { edited, editedText, marks, refusedSave, sampleProblem } = designer;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const preview = useRef<LivePreview | null>(null);
  const vocabulary = useMemo(() => computed(() => (designer.schema.value ? vocabularyOf(designer.schema.value) : null)), []);

  const markEditor = (): void => {
    const editor = view.current;
    if (!editor) return;
    // JSON.parse decides whether it is JSON; the syntax tree only says where it stops being (it may be parsed partly).
    if (parsed(editor.state.doc.toString()) === null) {
      const at = syntaxProblem(editor.state) ?? editor.state.doc.length;
      marks.value = [
        { path: '', at, message: 'This is not valid JSON here: look for a missing comma, quote or bracket.', severity: 'error' },
      ];
    }
    showProblems(editor, designer.shownMarks.value);
  };

  useEffect(() => {
    preview.current = new LivePreview(designer, clock, () => markEditor());
    view.current = createEditor(host.current!, {
      doc: editedText.value,
      label: edited.value.kind === 'template' ? 'Template' : 'Manifest',
      vocabulary: () => vocabulary.value,
      onChange: (text) => {
        editedText.value = text;
        if (parsed(text) === null) markEditor();
        else if (edited.value.kind === 'template') preview.current!.request();
        else {
          marks.value = [];
          markEditor();
        }
      },
    });
    void designer.loadSchema().catch(() => undefined); // without the schema the editor completes nothing; it still edits
    // Read on every visit, and followed while here: a template saved through the API shows without a reload.
    const loadLibrary = (): void => void designer.loadLibrary().catch(status.sayError);
    loadLibrary();
    const stopFollowing = designer.follow(loadLibrary);
    if (edited.value.kind === 'template') preview.current.request();
    return () => {
      stopFollowing();
      preview.current?.stop();
      view.current?.destroy();
      view.current = null;
    };
  }, []);

  return {
    host,
    view,
    preview,
    markEditor,
    open(kind, value, title) {
      edited.value = { kind, title };
      marks.value = [];
      refusedSave.value = null;
      sampleProblem.value = '';
      setText(view.current!, pretty(value));
      view.current!.focus();
    },
    insert(text) {
      if (view.current) insertText(view.current, text);
    },
  };
}

/** What the heading says is open: the name and app the text holds now, else what was opened. */
function headingTitle(kind: EditedKind, text: string, opened: string): string {
  const value = parsed(text);
  if (!value) return opened;
  if (kind === 'manifest') return String(value.app ?? opened);
  return `${String(value.name ?? '')} (${String(value.app ?? OWN_APP)})`;
}

/** A problem as the list under the editor says it: where (line, cell), then what. */
function problemText(view: EditorView | null, mark: Marked): string {
  const line = view ? view.state.doc.lineAt(mark.at ?? placeOf(view.state, mark.path).from).number : undefined;
  const where = [line !== undefined ? `Line ${line}` : '', mark.cellId ? `cell ${mark.cellId}` : ''].filter(Boolean).join(', ');
  return `${where ? `${where}: ` : ''}${mark.message}${mark.severity === 'warning' ? ' (a warning: it still saves)' : ''}`;
}

export function EditorPanel({ editor, onManifestSaved }: { editor: DesignerEditor; onManifestSaved: () => void }): VNode {
  const { api, designer, confirm, status } = useModels();
  const { edited, editedText, marks, refusedSave, sampleProblem, sampleText } = designer;
  const { view, preview, markEditor, open } = editor;
  const [saving, setSaving] = useState(false);
  const kind = edited.value.kind;

  // The editor's accessible name follows what is open.
  useEffect(() => {
    view.current?.contentDOM.setAttribute('aria-label', kind === 'template' ? 'Template' : 'Manifest');
  }, [kind]);

  const goTo = (mark: Marked): void => {
    const place = mark.at !== undefined ? { from: mark.at, to: mark.at } : placeOf(view.current!.state, mark.path);
    view.current!.dispatch({ selection: { anchor: place.from, head: place.to }, scrollIntoView: true });
    view.current!.focus();
  };

  const save = async (): Promise<void> => {
    const value = parsed(editedText.value);
    if (!value) {
      markEditor();
      status.say('Nothing was saved: the text is not valid JSON yet.');
      return;
    }
    setSaving(true);
    try {
      if (edited.value.kind === 'template') {
        const answer = await api.call<{ ok: boolean; warnings?: string[] }, DesignJson>('PUT', designerPaths.templates, value);
        edited.value = { kind: 'template', title: `${String(value.name)} (${String(value.app)})` };
        status.say(`Saved “${String(value.name)}”.${answer.warnings?.length ? ` Warnings: ${answer.warnings.join('; ')}.` : ''}`);
        await designer.loadLibrary();
      } else {
        await api.call<unknown, DesignJson>('PUT', designerPaths.manifest, value);
        edited.value = { kind: 'manifest', title: String(value.app) };
        status.say(`Saved the manifest of ${String(value.app)}.`);
        onManifestSaved();
      }
    } catch (error) {
      // The template's own problems are marked where they are (the preview finds them); a refusal of a field is marked
      // at that field.
      if (problemsOf(error))
        preview.current?.request(); // it answers the problems with their places
      else {
        const path = error instanceof ApiProblem && error.field ? error.field : '';
        refusedSave.value = { text: editedText.value, marks: [{ path, message: messageOf(error), severity: 'error' }] };
      }
      markEditor();
      status.say('Nothing was saved: see the problems under the editor.');
    } finally {
      setSaving(false);
    }
  };

  /** The saved template the text names (its app and name), when there is one: it can be deleted. */
  const current = parsed(editedText.value);
  const savedOne =
    kind === 'template' && current
      ? designer.library.value?.templates.find((template) => template.app === current.app && template.name === current.name)
      : undefined;
  const deleteTemplate = async (): Promise<void> => {
    if (!savedOne) return;
    const name = String(savedOne.name);
    const app = String(savedOne.app);
    const message = `“${name}” of ${app} is deleted. Its notifications stay in History; new ones use the built-in layout. The text stays in the editor.`;
    if (!(await confirm.ask({ title: `Delete the template “${name}”?`, message, confirm: 'Delete' }))) return;
    try {
      await api.call('DELETE', withQuery(designerPaths.templates, { app, name }));
      status.say(`Deleted “${name}”.`);
      await designer.loadLibrary();
    } catch (error) {
      status.sayError(error);
    }
  };

  const sendTest = async (): Promise<void> => {
    const template = parsed(editedText.value);
    const data = parsed(sampleText.value) ?? {};
    if (!template) return markEditor();
    try {
      await api.call<ComposeAnswer, DesignerPreviewRequest>('POST', designerPaths.sendTest, { template, data });
      status.say('Sent: the card is on the screen as a banner of Notifier.');
    } catch (error) {
      const problems = problemsOf(error);
      if (problems) {
        marks.value = problems;
        markEditor();
      } else sampleProblem.value = sampleMessage(error);
    }
  };

  const runsCode = kind === 'template' && RUNS_CODE.test(editedText.value);
  return (
    <section class="designer-editor" aria-labelledby="editor-heading">
      <h2 id="editor-heading">
        {kind === 'template' ? 'Template' : 'Manifest'}: {headingTitle(kind, editedText.value, edited.value.title)}
      </h2>
      <div class="editor-frame" ref={editor.host} />
      <ul id="designer-problems" class="designer-problems" aria-label="Problems">
        {designer.shownMarks.value.map((mark, index) => (
          <li key={`${index}-${mark.path}`} class={mark.severity === 'warning' ? 'problem-warning' : 'field-problem'}>
            <button type="button" class="link-button" onClick={() => goTo(mark)}>
              {problemText(view.current, mark)}
            </button>
          </li>
        ))}
      </ul>
      {runsCode && (
        <p class="designer-note">
          <Icon name="shieldCheck" />
          <span>
            This template runs code on this computer (a command, a script or a shortcut). Saving it does not allow it: the first time it
            runs, Notifier asks you, on the banner and on the <a href={pageHref('approvals')}>Approvals</a> page.
          </span>
        </p>
      )}
      <div class="actions">
        <button type="button" class="button button-primary" aria-disabled={saving} onClick={() => void save()}>
          <Icon name="circleCheck" />
          <span>Save</span>
        </button>
        {kind === 'template' && (
          <button type="button" class="button" onClick={() => void sendTest()}>
            <Icon name="send" />
            <span>Send test</span>
          </button>
        )}
        <button type="button" class="button button-quiet" onClick={() => open('template', STARTER, `${STARTER.name} (${STARTER.app})`)}>
          <Icon name="plus" />
          <span>New template</span>
        </button>
        {savedOne && (
          <button type="button" class="button button-quiet" onClick={() => void deleteTemplate()}>
            <Icon name="trash" />
            <span>Delete template</span>
          </button>
        )}
      </div>
    </section>
  );
}
