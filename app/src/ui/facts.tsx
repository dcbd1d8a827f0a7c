// One fact of a list of facts (`dl.facts`: the relay's addresses, a connector's codes, what a question would run):
// its term, then what it is; `title` (an exact time behind a relative one) shows on hover.

import type { ComponentChildren, VNode } from 'preact';

export function Fact({ term, title, children }: { term: string; title?: string; children: ComponentChildren }): VNode {
  return (
    <div>
      <dt>{term}</dt>
      <dd title={title}>{children}</dd>
    </div>
  );
}
