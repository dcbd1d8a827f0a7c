// The Designer's preview panel: the card the open template draws (the last one drawn stays while the next draws, or
// while the template has problems), and the sample data it is drawn with.

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import { TextField } from '../ui/fields.js';
import type { LivePreview } from './live-preview.js';

export function PreviewPanel({ preview }: { preview: { current: LivePreview | null } }): VNode {
  const { designer } = useModels();
  const { edited, picture, drawing, sampleText, sampleProblem } = designer;
  const kind = edited.value.kind;
  return (
    <section class="designer-preview" aria-labelledby="designer-preview-heading">
      <h2 id="designer-preview-heading">Preview</h2>
      {kind === 'template' ? (
        <div class="preview-stage" aria-busy={drawing.value}>
          {picture.value ? <img src={picture.value} alt="Preview" /> : <p class="muted">Drawing the card…</p>}
        </div>
      ) : null}
      {kind === 'template' && designer.shownMarks.value.some((mark) => mark.severity === 'error') ? (
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
  );
}
