// A notification's body as the banner reads it (protocol/markdown.ts): bold, italic and links, everything else
// literal. The runs become Preact elements whose text is set as text, so the sender's text never becomes markup;
// a link is a link only when its address may be opened (http, https, mailto), otherwise its label stays plain.

import type { VNode } from 'preact';
import { parseMarkdown, type StyledRun } from '../../../protocol/markdown.js';
import './markdown.css';

function Run({ run }: { run: StyledRun }): VNode {
  let node: VNode | string = run.text;
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

/** The whole body, line breaks kept (the stylesheet's `white-space: pre-wrap` on `.markdown`). */
export function Markdown({ text, class: className }: { text: string; class?: string }): VNode {
  const runs = parseMarkdown(text);
  return (
    <div class={className ? `markdown ${className}` : 'markdown'}>
      {runs.map((run, index) => (
        <Run key={index} run={run} />
      ))}
    </div>
  );
}
