// The Designer page of the person's app (docs/app.md#designer): its wire types and paths. The page edits templates
// and manifests, draws them as the person types, and manages an app's assets, through `/app/api`. Most routes answer
// with the very `/v1` handler (the same checks and errors); the few of its own are the library, the live preview that
// names each problem's place in the template, and "Send test".

/** Where the page's routes are. Queries as `/v1`'s: `?app=` for a list, `?app=&file=` for an asset. */
export const designerPaths = {
  /** GET: `DesignerLibrary`. */
  library: '/app/api/designer/library',
  /** POST `DesignerPreviewRequest`: `image/png`, or 400 `DesignerProblems` naming each problem's place. */
  preview: '/app/api/designer/preview',
  /** POST `DesignerPreviewRequest` (no theme): `{ok, id}` — the card as a real banner of Notifier's own app. */
  sendTest: '/app/api/designer/send-test',
  /** GET (`?app=`), PUT (a template), DELETE (`?app=&name=`): `/v1/templates`. */
  templates: '/app/api/templates',
  /** GET: `/v1/components`, the renderer's schema. */
  components: '/app/api/components',
  /** GET `?q=&limit=`: `/v1/symbols`. */
  symbols: '/app/api/symbols',
  /** GET: `/v1/shortcuts` (502 where there is no Shortcuts, off macOS). */
  shortcuts: '/app/api/shortcuts',
  /** GET (`?app=`), POST (`{app, name, base64}`), DELETE (`?app=&file=`): `/v1/assets`. */
  assets: '/app/api/assets',
  /** GET: `/v1/manifests`. */
  manifests: '/app/api/manifests',
  /** GET (`?app=`), PUT (a manifest), DELETE (`?app=`): `/v1/manifest`. */
  manifest: '/app/api/manifest',
} as const;

/** A template or manifest as JSON: the page edits it as text, the daemon checks it. */
export type DesignJson = Record<string, unknown>;

/** POST assets: a picture or animation the person picked, for an app. */
export interface AssetUpload {
  app: string;
  name: string;
  base64: string;
}

/** GET library: the four built-in layouts (as they are written: a starting point to copy) and every saved template. */
export interface DesignerLibrary {
  builtins: DesignJson[];
  templates: DesignJson[];
}

export interface DesignerPreviewRequest {
  /** The template being edited, whole (its `app` names whose manifest, icon and assets it draws with). */
  template: DesignJson;
  /** The sample data: a notification's fields, read like a notify body. */
  data?: DesignJson;
  theme?: 'light' | 'dark';
}

/** One problem of a template, where it is: `cells[1].component.fontSize`, in the cell `title`. */
export interface DesignerProblem {
  path: string;
  cellId?: string;
  message: string;
}

/** 400 of preview and send-test when the template does not pass the checks (`code: invalid_template`). */
export interface DesignerProblems {
  error: string;
  code: 'invalid_template';
  problems: DesignerProblem[];
  warnings: DesignerProblem[];
}

/** The name "Send test" saves the edited template under, for Notifier's own app: a scratch name, never listed. */
export const DESIGNER_TEST_TEMPLATE = '_designer-test';
