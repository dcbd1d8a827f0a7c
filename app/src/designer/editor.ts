// The Designer's code editor: CodeMirror 6 with JSON, completion of the renderer's names, and the template
// validator's problems marked where they are. Loaded only with the Designer page (a chunk of its own).

import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, HighlightStyle, syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { tags } from '@lezer/highlight';
import type { DesignerProblem } from '../../../protocol/app-api-designer.js';

/** What completion offers: read from `GET /app/api/components` (the renderer's schema). */
export interface Vocabulary {
  /** Component type → its property names. */
  components: Record<string, string[]>;
  /** Object kind (`template`, `grid`, `cell`, `action`…) → its property names. */
  objects: Record<string, string[]>;
  /** Tokens a binding can name (`title`, `appName`…). */
  tokens: string[];
}

type Json = Record<string, unknown>;
const keysOf = (spec: unknown): string[] => Object.keys(((spec as Json | undefined)?.properties as Json | undefined) ?? {});

/** The schema document as completion reads it. */
export function vocabularyOf(schema: Json): Vocabulary {
  const components = Object.fromEntries(Object.entries((schema.components as Json) ?? {}).map(([type, spec]) => [type, keysOf(spec)]));
  const definitions = (schema.definitions as Json) ?? {};
  const objects: Record<string, string[]> = { template: keysOf(schema) };
  for (const [name, spec] of Object.entries(definitions)) objects[name] = keysOf(spec);
  const tokens = ((schema.bindings as Json | undefined)?.standardTokens as string[] | undefined) ?? [];
  return { components, objects, tokens };
}

// ---------------------------------------------------------------------------------------------------------------
// Places in the JSON: a problem's path (`cells[1].component.fontSize`) as a range of the text

type Step = string | number;

function stepsOf(path: string): Step[] {
  const steps: Step[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) steps.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return steps;
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

/** The range of the deepest part of `path` the text has: the value at the path, else the nearest object holding it. */
export function placeOf(state: EditorState, path: string): { from: number; to: number } {
  let node: SyntaxNode | null = syntaxTree(state).topNode.firstChild;
  if (!node) return { from: 0, to: 0 };
  let place = { from: node.from, to: Math.min(node.to, node.from + 1) };
  for (const step of stepsOf(path)) {
    let next: SyntaxNode | undefined;
    if (typeof step === 'number' && node.name === 'Array') next = children(node).filter((child) => VALUE_NODES.has(child.name))[step];
    if (typeof step === 'string' && node.name === 'Object') {
      const property: SyntaxNode | undefined = children(node).find((child) => {
        const name = child.name === 'Property' ? child.getChild('PropertyName') : null;
        return name !== null && unquote(state.sliceDoc(name.from, name.to)) === step;
      });
      next = property ? children(property).find((child) => VALUE_NODES.has(child.name)) : undefined;
      if (property && !next) place = { from: property.from, to: property.to };
    }
    if (!next) return place;
    node = next;
    place = { from: node.from, to: node.to };
  }
  return place;
}

function unquote(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
}

/** Where the text stops being JSON, or null when it is JSON. */
export function syntaxProblem(state: EditorState): number | null {
  let at: number | null = null;
  syntaxTree(state).iterate({
    enter: (node) => {
      if (at !== null) return false;
      if (node.type.isError) at = node.from;
      return undefined;
    },
  });
  return at;
}

/** The problems as the editor's marks (an underline, the message on hover and in the lint panel, Ctrl-Shift-M). */
export function showProblems(view: EditorView, problems: Array<DesignerProblem & { severity: 'error' | 'warning'; at?: number }>): void {
  const length = view.state.doc.length;
  const diagnostics: Diagnostic[] = problems.map((problem) => {
    const { from, to } =
      problem.at !== undefined
        ? { from: Math.min(problem.at, length), to: Math.min(problem.at + 1, length) }
        : placeOf(view.state, problem.path);
    return {
      from,
      to,
      severity: problem.severity,
      message: problem.message,
      ...(problem.cellId ? { source: `cell ${problem.cellId}` } : {}),
    };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

// ---------------------------------------------------------------------------------------------------------------
// Completion: property names fitted to the object the cursor is in, component types, and binding tokens

/** The property chain of the object holding `node`, outermost first (`cells`, 0, `component`). */
function objectKind(state: EditorState, object: SyntaxNode): { kind: string; type?: string } {
  const parents: string[] = [];
  for (let node: SyntaxNode | null = object.parent; node; node = node.parent) {
    if (node.name === 'Property') {
      const name = node.getChild('PropertyName');
      if (name) parents.push(unquote(state.sliceDoc(name.from, name.to)));
    }
  }
  const holder = parents[0];
  if (holder === 'component') {
    const typeProperty = children(object).find(
      (child) =>
        child.name === 'Property' &&
        unquote(state.sliceDoc(child.getChild('PropertyName')!.from, child.getChild('PropertyName')!.to)) === 'type',
    );
    const value = typeProperty ? children(typeProperty).find((child) => child.name === 'String') : undefined;
    return { kind: 'component', ...(value ? { type: unquote(state.sliceDoc(value.from, value.to)) } : {}) };
  }
  if (holder === undefined) return { kind: 'template' };
  if (holder === 'cells') return { kind: 'cell' };
  if (holder === 'actionRules') return { kind: 'actionRule' };
  if (holder === 'action' || holder === 'add') return { kind: 'action' };
  return { kind: holder };
}

function completer(vocabulary: () => Vocabulary | null) {
  return (context: CompletionContext): CompletionResult | null => {
    const known = vocabulary();
    if (!known) return null;
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    const word = context.matchBefore(/"?[\w.{}-]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const quoted = word.text.startsWith('"');
    const from = quoted ? word.from + 1 : word.from;
    // A property's name: the names of the object the cursor is in.
    const inName = node.name === 'PropertyName' || (node.parent?.name === 'Object' && node.name !== 'String') || node.name === '⚠';
    // A value being typed: read from the line, since an unfinished string is not a String node yet.
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const typeValue = /"type"\s*:\s*"(\w*)$/.exec(before);
    if (typeValue)
      return {
        from: context.pos - typeValue[1]!.length,
        options: Object.keys(known.components).map((label) => ({ label, type: 'type' })),
        validFor: /^\w*$/,
      };
    const token = /"(?:binding|title|subtitle|body|image|url)"\s*:\s*"[^"]*(\{[\w.-]*)$/.exec(before);
    if (token)
      return { from: context.pos - token[1]!.length, options: known.tokens.map((name) => ({ label: `{${name}}`, type: 'variable' })) };
    if (node.name === 'String' && node.parent?.name === 'Property') return null; // another value: nothing to offer
    const object =
      node.name === 'Object'
        ? node
        : node.parent?.name === 'Object'
          ? node.parent
          : node.parent?.parent?.name === 'Object'
            ? node.parent.parent
            : null;
    if (!inName || !object) return null;
    const { kind, type } = objectKind(context.state, object);
    const names =
      kind === 'component'
        ? type && known.components[type]
          ? known.components[type]!
          : [...new Set(Object.values(known.components).flat())]
        : (known.objects[kind] ?? known.objects.template ?? []);
    // The name goes in its quotes: the ones typed, and the closing one when it is not there yet.
    const closed = context.state.sliceDoc(context.pos, context.pos + 1) === '"';
    const apply = (label: string): string => (quoted ? (closed ? label : `${label}"`) : `"${label}"`);
    const options: Completion[] = names.map((label) => ({ label, type: 'property', apply: apply(label) }));
    return { from, options, validFor: /^[\w]*$/ };
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The editor

export interface EditorOptions {
  doc: string;
  /** The editor's accessible name. */
  label: string;
  onChange: (text: string) => void;
  vocabulary?: () => Vocabulary | null;
}

/**
 * The editor's look, in the window's colours (CSS variables reach into the shadow root). CodeMirror puts these rules
 * in a style sheet of its own; see `createEditor` for why that sheet is a constructed one.
 */
const look = EditorView.theme({
  '&': {
    color: 'var(--text)',
    backgroundColor: 'var(--surface)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    fontSize: '13px',
    height: '100%',
  },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', border: 'none' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selected)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--accent-text)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--waiting)' },
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--text)' },
});

/** JSON's parts in the window's colours, readable in light and dark. */
const colours = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--accent)' },
  { tag: tags.string, color: 'var(--done)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--waiting)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

/**
 * Tab leaves the editor (it does not indent): the keyboard is never trapped, and the page's other controls are reached.
 *
 * The editor lives in a shadow root of `host`. CodeMirror injects its styles at run time: into a document it adds a
 * `<style>` element, which the window's Content-Security-Policy (`style-src 'self'`) refuses; into a shadow root it
 * adds a constructed style sheet (`adoptedStyleSheets`), which is not inline markup and needs no `'unsafe-inline'`
 * nor a nonce. So the policy stays as strict as every other page's (docs/app.md#designer).
 */
export function createEditor(host: HTMLElement, options: EditorOptions): EditorView {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    bracketMatching(),
    syntaxHighlighting(colours),
    look,
    json(),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    EditorView.lineWrapping,
    // tabindex: a contenteditable is a Tab stop anyway; said outright, checkers see the scrolling editor reachable.
    EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange(update.state.doc.toString());
    }),
  ];
  if (options.vocabulary) extensions.push(autocompletion({ override: [completer(options.vocabulary)] }));
  return new EditorView({ state: EditorState.create({ doc: options.doc, extensions }), parent: root, root });
}
/** Replaces the whole text (another template opened). */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
}

/** Inserts at the cursor (a name chosen in the browser), and gives the editor the focus. */
export function insertText(view: EditorView, text: string): void {
  view.dispatch(view.state.replaceSelection(text));
  view.focus();
}
