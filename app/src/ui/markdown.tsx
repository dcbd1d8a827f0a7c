// A notification's body as the banner's reader reads it (protocol/markdown.ts): its blocks (paragraphs, headings,
// code, lists, quotes, rules) and their bold, italic, code and links. They become Preact elements whose text is set
// as text, so the sender's text never becomes markup; a link is a link only when its address may be opened (http,
// https, mailto), otherwise its label stays plain.

import type { VNode } from 'preact';
import { type Block, type List, parseBlocks, parseMarkdown, type StyledRun } from '../../../protocol/markdown.js';
import './markdown.css';

/** The deepest heading level HTML has. */
const DEEPEST_HEADING = 6;

function Run({ run }: { run: StyledRun }): VNode {
  let node: VNode | string = run.text;
  if (run.code) node = <code>{node}</code>;
  if (run.italic) node = <em>{node}</em>;
  if (run.bold) node = <strong>{node}</strong>;
  if (run.href) {
    return (
      <a href={run.href} target="_blank" rel="noopener noreferrer" title={run.href}>
        {node}
      </a>
    );
  }
  return run.link ? <span class="md-dead-link">{node}</span> : <>{node}</>;
}

const Runs = ({ runs }: { runs: StyledRun[] }): VNode => (
  <>
    {runs.map((run, index) => (
      <Run key={index} run={run} />
    ))}
  </>
);

/**
 * The sender's headings as headings of the page, under its own: the sender's `#` at `top`, each next level one
 * deeper, and never more than one deeper than the heading before it (the page's own heading first), so the page's
 * outline has no gap whatever levels the sender picked.
 */
class HeadingLevels {
  private previous: number;

  constructor(private readonly top: number) {
    this.previous = top - 1;
  }

  next(senderLevel: number): number {
    this.previous = Math.min(this.top + senderLevel - 1, this.previous + 1, DEEPEST_HEADING);
    return this.previous;
  }
}

function ListOf({ list }: { list: List }): VNode {
  const items = list.items.map((item, index) => (
    <li key={index}>
      <Runs runs={item.runs} />
      {item.list && <ListOf list={item.list} />}
    </li>
  ));
  return list.ordered ? (
    <ol class="md-block" start={list.start === 1 ? undefined : list.start}>
      {items}
    </ol>
  ) : (
    <ul class="md-block">{items}</ul>
  );
}

function blockOf(block: Block, key: number, levels: HeadingLevels): VNode {
  switch (block.kind) {
    case 'paragraph':
      return (
        <p key={key} class="md-block">
          <Runs runs={block.runs} />
        </p>
      );
    case 'heading': {
      const Heading = `h${levels.next(block.level)}` as 'h3';
      return (
        <Heading key={key} class="md-block md-heading">
          <Runs runs={block.runs} />
        </Heading>
      );
    }
    case 'code': {
      // Focusable: a long line scrolls sideways, and the keyboard must reach what it scrolls to.
      const pre = (
        <pre class="md-code" tabIndex={0}>
          <code>{block.text}</code>
        </pre>
      );
      return block.label ? (
        <figure key={key} class="md-block md-figure">
          <figcaption>{block.label}</figcaption>
          {pre}
        </figure>
      ) : (
        <div key={key} class="md-block">
          {pre}
        </div>
      );
    }
    case 'quote':
      return (
        <blockquote key={key} class="md-block">
          {block.blocks.map((inner, index) => blockOf(inner, index, levels))}
        </blockquote>
      );
    case 'list':
      return <ListOf key={key} list={block} />;
    case 'rule':
      return <hr key={key} class="md-block" />;
  }
}

/**
 * The whole body. As blocks, the sender's headings start at `headingLevel` (one below the heading the body sits
 * under). With `flat`, as the desktop banner shows it: one text without its marks, line breaks kept.
 */
export function Markdown({
  text,
  class: className,
  headingLevel = 3,
  flat = false,
}: {
  text: string;
  class?: string;
  headingLevel?: number;
  flat?: boolean;
}): VNode {
  const classes = ['markdown', flat && 'markdown-flat', className].filter(Boolean).join(' ');
  if (flat) {
    return (
      <div class={classes}>
        <Runs runs={parseMarkdown(text)} />
      </div>
    );
  }
  const levels = new HeadingLevels(headingLevel);
  return <div class={classes}>{parseBlocks(text).map((block, index) => blockOf(block, index, levels))}</div>;
}
