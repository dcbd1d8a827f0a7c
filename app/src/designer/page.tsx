// The Designer (docs/app.md#designer): the template library with its card pictures; a template (or a manifest)
// edited as JSON in a code editor, drawn by the real renderer as the person types, its problems marked where they
// are; what a template can use (components, symbols, shortcuts) with a click that inserts the name; the app's
// pictures (drop one, or choose it) and its manifests. Loaded only on this page: the editor is a chunk of its own.

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EditorView } from '@codemirror/view';
import { OWN_APP } from '../../../protocol/app-api.js';
import { designerPaths, type DesignJson } from '../../../protocol/app-api-designer.js';
import { ApiProblem, call, messageOf, withQuery } from '../api.js';
import { TextField } from '../compose/fields.js';
import { pageHref } from '../router.js';
import { confirmFirst } from '../ui/confirm.js';
import { Icon } from '../ui/icon.js';
import { say, sayError } from '../ui/status.js';
import { createEditor, insertText, placeOf, setText, showProblems, syntaxProblem, vocabularyOf, type Vocabulary } from './editor.js';
import {
  drawPicture,
  drawing,
  edited,
  editedApp,
  editedText,
  library,
  LivePreview,
  loadLibrary,
  marks,
  parsed,
  picture,
  pretty,
  problemsOf,
  sampleMessage,
  sampleProblem,
  sampleText,
  refusedSave,
  shownMarks,
  STARTER,
  type Marked,
} from './store.js';

/** Symbols listed at once (the catalogue has some 1,900; the search narrows it). */
const SYMBOLS_SHOWN = 60;
/** A picture is sent as base64 in a request of at most 1 MiB: its bytes grow by a third on the way. */
const MAX_UPLOAD_BYTES = 700 * 1024;
/** A template that names one of these runs code on this computer: the person approves it first. */
const RUNS_CODE = /"(command|script|shortcut)"\s*:/;

let vocabulary: Vocabulary | null = null;
/** The library's card pictures, by the template's JSON: drawn once per visit of the window. */
const cardPictures = new Map<string, string>();
/** The library's pictures are drawn this many at a time: the live preview is not kept waiting behind a long library. */
const CARDS_AT_ONCE = 2;
let cardsDrawing = 0;
const cardsWaiting: Array<() => void> = [];

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

// ---------------------------------------------------------------------------------------------------------------
// The library

function LibraryCard({ template, builtin, onOpen }: { template: DesignJson; builtin: boolean; onOpen: () => void }): VNode {
  const key = JSON.stringify(template);
  const [src, setSrc] = useState(cardPictures.get(key) ?? '');
  useEffect(() => {
    if (src) return;
    let current = true;
    inCardTurn(() => drawPicture(template, undefined)).then(
      (drawn) => {
        if (!('blob' in drawn)) return;
        const url = URL.createObjectURL(drawn.blob);
        cardPictures.set(key, url);
        if (current) setSrc(url);
      },
      () => undefined, // a template that no longer draws still opens: the editor says why
    );
    return () => {
      current = false;
    };
  }, [key]);
  const name = String(template.name);
  return (
    <li>
      <button type="button" class="template-card" onClick={onOpen}>
        <span class="template-card-picture">{src ? <img src={src} alt="" /> : <span class="muted">Drawing…</span>}</span>
        <span class="template-card-name">{builtin ? name.replace(/^builtin\./, '') : name}</span>
        <span class="template-card-app muted">{builtin ? 'Built-in layout' : String(template.app)}</span>
      </button>
    </li>
  );
}

function Library({ onOpen }: { onOpen: (template: DesignJson, builtin: boolean) => void }): VNode {
  const known = library.value;
  return (
    <section class="designer-library" aria-labelledby="library-heading">
      <h2 id="library-heading">Templates</h2>
      <p class="muted">Open a template to change it. A built-in layout is a starting point: it opens as a copy for you to name and save.</p>
      {!known ? (
        <p class="muted">Loading the templates…</p>
      ) : (
        <ul class="template-cards">
          {known.builtins.map((template) => (
            <LibraryCard key={`b-${String(template.name)}`} template={template} builtin onOpen={() => onOpen(template, true)} />
          ))}
          {known.templates.map((template) => (
            <LibraryCard
              key={`t-${String(template.app)}-${String(template.name)}`}
              template={template}
              builtin={false}
              onOpen={() => onOpen(template, false)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// What a template can use

type BrowseKind = 'components' | 'symbols' | 'shortcuts';
const BROWSE_LABELS: Record<BrowseKind, string> = { components: 'Components', symbols: 'Symbols', shortcuts: 'Shortcuts' };

function Browser({ insert }: { insert: (text: string) => void }): VNode {
  const [kind, setKind] = useState<BrowseKind>('components');
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<Array<{ name: string; about?: string }>>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    let current = true;
    const words = query.trim().toLowerCase();
    const load = async (): Promise<Array<{ name: string; about?: string }>> => {
      if (kind === 'components') {
        const schema = await call<Record<string, { components: Record<string, { description?: string }> }>>(
          'GET',
          designerPaths.components,
        );
        const components = (schema as unknown as { components: Record<string, { description?: string }> }).components;
        return Object.entries(components)
          .map(([name, spec]) => ({ name, about: spec.description }))
          .filter((item) => !words || `${item.name} ${item.about ?? ''}`.toLowerCase().includes(words));
      }
      if (kind === 'symbols') {
        const answer = await call<{ symbols: Array<{ name: string; categories: string[] }> }>(
          'GET',
          withQuery(designerPaths.symbols, { q: words || undefined, limit: SYMBOLS_SHOWN }),
        );
        return answer.symbols.map((symbol) => ({ name: symbol.name, about: symbol.categories.join(', ') }));
      }
      const answer = await call<{ items: string[] }>('GET', designerPaths.shortcuts);
      return answer.items.filter((name) => !words || name.toLowerCase().includes(words)).map((name) => ({ name }));
    };
    load().then(
      (found) => {
        if (!current) return;
        setItems(found);
        setProblem('');
      },
      (error: unknown) => {
        if (!current) return;
        setItems([]);
        setProblem(
          kind === 'shortcuts' && error instanceof ApiProblem && error.status === 502
            ? 'Shortcuts are Apple Shortcuts, which exist on macOS only: this computer has none.'
            : messageOf(error),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [kind, query]);
  return (
    <section class="designer-browse" aria-labelledby="browse-heading">
      <h2 id="browse-heading">What a template can use</h2>
      <fieldset class="segmented">
        <legend class="visually-hidden">Show</legend>
        {(Object.keys(BROWSE_LABELS) as BrowseKind[]).map((choice) => (
          <label key={choice} class={kind === choice ? 'checked' : undefined}>
            <input type="radio" name="browse" value={choice} checked={kind === choice} onChange={() => setKind(choice)} />
            {BROWSE_LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <div class="search designer-search">
        <Icon name="search" />
        <input
          type="search"
          aria-label={`Search ${BROWSE_LABELS[kind].toLowerCase()}`}
          placeholder={`Search ${BROWSE_LABELS[kind].toLowerCase()}`}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
      </div>
      {problem ? (
        <p class="muted">{problem}</p>
      ) : (
        <ul class="browse-list" aria-label={BROWSE_LABELS[kind]}>
          {items.length === 0 && <li class="muted">Nothing found.</li>}
          {items.map((item) => (
            <li key={item.name}>
              <button type="button" class="button button-quiet browse-item" onClick={() => insert(item.name)}>
                <span class="visually-hidden">Insert </span>
                <code>{item.name}</code>
              </button>
              {item.about && <span class="muted browse-about">{item.about}</span>}
            </li>
          ))}
        </ul>
      )}
      <p class="hint">A click inserts the name where the cursor is in the editor.</p>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The app's pictures

interface AssetRow {
  kind: 'image' | 'rive';
  file: string;
  path: string;
  bytes: number;
  usedBy: string[];
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

function Assets({ app, insert }: { app: string; insert: (text: string) => void }): VNode {
  const [assets, setAssets] = useState<AssetRow[] | null>(null);
  const [problem, setProblem] = useState('');
  const [over, setOver] = useState(false);
  const reload = (): Promise<void> =>
    call<{ assets: AssetRow[] }>('GET', withQuery(designerPaths.assets, { app })).then(
      (answer) => setAssets(answer.assets),
      (error: unknown) => setProblem(messageOf(error)),
    );
  useEffect(() => void reload(), [app]);

  const upload = async (files: FileList | null): Promise<void> => {
    const file = files?.[0];
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setProblem(`${file.name} is too large to add here (at most ${MAX_UPLOAD_BYTES / 1024} KB): use a smaller picture.`);
      return;
    }
    try {
      await call('POST', designerPaths.assets, { app, name: file.name, base64: await readBase64(file) });
      setProblem('');
      say(`Added ${file.name}.`);
      await reload();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  const remove = async (asset: AssetRow): Promise<void> => {
    const used = asset.usedBy.length > 0 ? ` The templates ${asset.usedBy.join(', ')} still name it and will draw without it.` : '';
    if (
      !(await confirmFirst({ title: `Delete ${asset.file}?`, message: `It is removed from ${app}'s pictures.${used}`, confirm: 'Delete' }))
    )
      return;
    try {
      await call('DELETE', withQuery(designerPaths.assets, { app, file: asset.file }));
      say(`Deleted ${asset.file}.`);
      await reload();
    } catch (error) {
      sayError(error);
    }
  };
  return (
    <section class="designer-assets" aria-labelledby="assets-heading">
      <h2 id="assets-heading">Pictures of {app}</h2>
      <div
        class={`drop-zone${over ? ' drop-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          void upload(event.dataTransfer?.files ?? null);
        }}
      >
        <p>Drop an image here, or</p>
        <label class="button">
          <Icon name="plus" />
          <span>Choose an image</span>
          <input
            type="file"
            class="visually-hidden"
            accept="image/*"
            onChange={(event) => {
              void upload(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      {problem && (
        <p class="field-problem" role="alert">
          {problem}
        </p>
      )}
      {assets && assets.length === 0 && <p class="muted">No pictures yet.</p>}
      {assets && assets.length > 0 && (
        <ul class="asset-list" aria-label={`Pictures of ${app}`}>
          {assets.map((asset) => (
            <li key={asset.file}>
              <span class="asset-name">{asset.file}</span>
              <span class="muted">{Math.max(1, Math.round(asset.bytes / 1024))} KB</span>
              <button type="button" class="button button-quiet" onClick={() => insert(asset.path)}>
                Insert<span class="visually-hidden"> {asset.file}</span>
              </button>
              <button type="button" class="button button-quiet" onClick={() => void remove(asset)}>
                Delete<span class="visually-hidden"> {asset.file}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="hint">Insert puts the picture's path in the editor: use it as an image cell's binding.</p>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Manifests

function Manifests({ onEdit, serial }: { onEdit: (manifest: DesignJson) => void; serial: number }): VNode {
  const [items, setItems] = useState<DesignJson[] | null>(null);
  const reload = (): Promise<void> =>
    call<{ items: DesignJson[] }>('GET', designerPaths.manifests).then(
      (answer) => setItems(answer.items),
      (error: unknown) => sayError(error),
    );
  useEffect(() => void reload(), [serial]);
  const remove = async (app: string): Promise<void> => {
    const message = `The manifest of ${app} is removed (its fields, actions and samples). The app, its templates and its History stay.`;
    if (!(await confirmFirst({ title: `Delete the manifest of ${app}?`, message, confirm: 'Delete' }))) return;
    try {
      await call('DELETE', withQuery(designerPaths.manifest, { app }));
      say(`Deleted the manifest of ${app}.`);
      await reload();
    } catch (error) {
      sayError(error);
    }
  };
  return (
    <section class="designer-manifests" aria-labelledby="manifests-heading">
      <h2 id="manifests-heading">Manifests</h2>
      <p class="muted">An app's manifest names the fields it sends, with sample values the previews show.</p>
      {items && items.length === 0 && <p class="muted">No app has a manifest yet.</p>}
      {items && items.length > 0 && (
        <ul class="asset-list" aria-label="Manifests">
          {items.map((manifest) => (
            <li key={String(manifest.app)}>
              <span class="asset-name">{String(manifest.appName ?? manifest.app)}</span>
              <span class="muted">{String(manifest.app)}</span>
              <button type="button" class="button button-quiet" onClick={() => onEdit(manifest)}>
                Edit<span class="visually-hidden"> the manifest of {String(manifest.app)}</span>
              </button>
              <button type="button" class="button button-quiet" onClick={() => void remove(String(manifest.app))}>
                Delete<span class="visually-hidden"> the manifest of {String(manifest.app)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The page

/** What the heading says is open: the name and app the text holds now, else what was opened. */
function headingTitle(kind: 'template' | 'manifest'): string {
  const value = parsed(editedText.value);
  if (!value) return edited.value.title;
  if (kind === 'manifest') return String(value.app ?? edited.value.title);
  return `${String(value.name ?? '')} (${String(value.app ?? OWN_APP)})`;
}

/** A problem as the list under the editor says it: where (line, cell), then what. */
function problemText(view: EditorView | null, mark: Marked): string {
  const line = view ? view.state.doc.lineAt(mark.at ?? placeOf(view.state, mark.path).from).number : undefined;
  const where = [line !== undefined ? `Line ${line}` : '', mark.cellId ? `cell ${mark.cellId}` : ''].filter(Boolean).join(', ');
  return `${where ? `${where}: ` : ''}${mark.message}${mark.severity === 'warning' ? ' (a warning: it still saves)' : ''}`;
}

export function DesignerBody(): VNode {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const preview = useRef<LivePreview | null>(null);
  const [saving, setSaving] = useState(false);
  const [manifestSerial, setManifestSerial] = useState(0);
  const kind = edited.value.kind;

  /** The marks in the editor: the JSON's own problem first, else the template's. */
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
    showProblems(editor, shownMarks());
  };

  useEffect(() => {
    preview.current = new LivePreview(() => markEditor());
    view.current = createEditor(host.current!, {
      doc: editedText.value,
      label: edited.value.kind === 'template' ? 'Template' : 'Manifest',
      vocabulary: () => vocabulary,
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
    if (!vocabulary)
      void call<Record<string, unknown>>('GET', designerPaths.components).then((schema) => (vocabulary = vocabularyOf(schema)));
    if (!library.value) void loadLibrary().catch(sayError);
    if (edited.value.kind === 'template') preview.current.request();
    return () => {
      preview.current?.stop();
      view.current?.destroy();
      view.current = null;
    };
  }, []);

  // The editor's accessible name follows what is open.
  useEffect(() => {
    view.current?.contentDOM.setAttribute('aria-label', kind === 'template' ? 'Template' : 'Manifest');
  }, [kind]);

  const open = (kindOpened: 'template' | 'manifest', value: DesignJson, title: string): void => {
    edited.value = { kind: kindOpened, title };
    marks.value = [];
    refusedSave.value = null;
    sampleProblem.value = '';
    setText(view.current!, pretty(value));
    view.current!.focus();
  };
  const openTemplate = (template: DesignJson, builtin: boolean): void => {
    const copy = builtin ? { ...template, app: OWN_APP, name: `${String(template.name).replace(/^builtin\./, '')} copy` } : template;
    open('template', copy, `${String(copy.name)} (${String(copy.app)})`);
    say(builtin ? `Opened a copy of the built-in layout, named “${String(copy.name)}”.` : `Opened “${String(copy.name)}”.`);
  };
  const insert = (text: string): void => {
    if (view.current) insertText(view.current, text);
  };
  const goTo = (mark: Marked): void => {
    const editor = view.current!;
    const place = mark.at !== undefined ? { from: mark.at, to: mark.at } : placeOf(editor.state, mark.path);
    editor.dispatch({ selection: { anchor: place.from, head: place.to }, scrollIntoView: true });
    editor.focus();
  };

  const save = async (): Promise<void> => {
    const value = parsed(editedText.value);
    if (!value) {
      markEditor();
      say('Nothing was saved: the text is not valid JSON yet.');
      return;
    }
    setSaving(true);
    try {
      if (edited.value.kind === 'template') {
        const answer = await call<{ ok: boolean; warnings?: string[] }>('PUT', designerPaths.templates, value);
        edited.value = { kind: 'template', title: `${String(value.name)} (${String(value.app)})` };
        say(`Saved “${String(value.name)}”.${answer.warnings?.length ? ` Warnings: ${answer.warnings.join('; ')}.` : ''}`);
        await loadLibrary();
      } else {
        await call('PUT', designerPaths.manifest, value);
        edited.value = { kind: 'manifest', title: String(value.app) };
        say(`Saved the manifest of ${String(value.app)}.`);
        setManifestSerial((serial) => serial + 1);
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
      say('Nothing was saved: see the problems under the editor.');
    } finally {
      setSaving(false);
    }
  };

  /** The saved template the text names (its app and name), when there is one: it can be deleted. */
  const current = parsed(editedText.value);
  const savedOne =
    kind === 'template' && current
      ? library.value?.templates.find((template) => template.app === current.app && template.name === current.name)
      : undefined;
  const deleteTemplate = async (): Promise<void> => {
    if (!savedOne) return;
    const name = String(savedOne.name);
    const app = String(savedOne.app);
    const message = `“${name}” of ${app} is deleted. Its notifications stay in History; new ones use the built-in layout. The text stays in the editor.`;
    if (!(await confirmFirst({ title: `Delete the template “${name}”?`, message, confirm: 'Delete' }))) return;
    try {
      await call('DELETE', withQuery(designerPaths.templates, { app, name }));
      say(`Deleted “${name}”.`);
      await loadLibrary();
    } catch (error) {
      sayError(error);
    }
  };

  const sendTest = async (): Promise<void> => {
    const template = parsed(editedText.value);
    const data = parsed(sampleText.value) ?? {};
    if (!template) return markEditor();
    try {
      await call('POST', designerPaths.sendTest, { template, data });
      say('Sent: the card is on the screen as a banner of Notifier.');
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
    <div class="designer">
      <Library onOpen={openTemplate} />
      <div class="designer-work">
        <section class="designer-editor" aria-labelledby="editor-heading">
          <h2 id="editor-heading">
            {kind === 'template' ? 'Template' : 'Manifest'}: {headingTitle(kind)}
          </h2>
          <div class="editor-frame" ref={host} />
          <ul id="designer-problems" class="designer-problems" aria-label="Problems">
            {shownMarks().map((mark, index) => (
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
        <section class="designer-preview" aria-labelledby="designer-preview-heading">
          <h2 id="designer-preview-heading">Preview</h2>
          {kind === 'template' ? (
            <div class="preview-stage" aria-busy={drawing.value}>
              {picture.value ? <img src={picture.value} alt="Preview" /> : <p class="muted">Drawing the card…</p>}
            </div>
          ) : null}
          {kind === 'template' && shownMarks().some((mark) => mark.severity === 'error') ? (
            <p class="muted">This is the last card drawn: fix the problems under the editor to see your changes.</p>
          ) : null}
          {kind === 'manifest' && (
            <p class="muted">A manifest has no picture of its own: its sample values show in the previews of the app's templates.</p>
          )}
          <TextField
            id="designer-sample"
            label="Sample data"
            rows={6}
            value={sampleText.value}
            hint="The fields of a notification, as JSON: the card is drawn with them."
            problem={sampleProblem.value ? { control: 'designer-sample', message: sampleProblem.value } : null}
            onValue={(value) => {
              sampleText.value = value;
              if (edited.value.kind === 'template') preview.current?.request();
            }}
          />
        </section>
      </div>
      <div class="designer-tools">
        <Browser insert={insert} />
        <Assets app={editedApp()} insert={insert} />
        <Manifests serial={manifestSerial} onEdit={(manifest) => open('manifest', manifest, String(manifest.app))} />
      </div>
    </div>
  );
}
