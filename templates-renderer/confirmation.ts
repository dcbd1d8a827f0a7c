// The inline questions a banner can show in place of its buttons (docs/api/templates.md#t25). Previews draw them so
// a designer sees how a banner looks while it asks; only the person at the computer can answer one
// (docs/api/actions.md#x11), so nothing here answers anything.

export const CONFIRMATION_KINDS = [
  'callbackHost',
  'command',
  'script',
  'shortcut',
  'templateCommand',
  'destructiveAction',
  'connectorConsent',
  'remindersError',
  'remindersDenied',
] as const;
export type ConfirmationKind = (typeof CONFIRMATION_KINDS)[number];

/** docs/api/templates.md#t25: the optional strings of the object form. */
export const CONFIRMATION_STRINGS = [
  'name',
  'host',
  'url',
  'command',
  'template',
  'others',
  'replaces',
  'label',
  'code',
  'message',
] as const;

export type Confirmation = { kind: ConfirmationKind } & Partial<Record<(typeof CONFIRMATION_STRINGS)[number], string>>;

/** What the question panel shows: a line that asks, details, and the two (or one) answers. */
export interface Question {
  title: string;
  detail: string[];
  /** The first detail line is code (a command) and is drawn in the monospaced face. */
  code: boolean;
  answers: Array<{ label: string; style: 'prominent' | 'destructive' | 'default' }>;
}

/**
 * docs/api/templates.md#t25: each kind has sample values — values a designer sees when the preview names only the
 * kind.
 */
const SAMPLES: Required<Omit<Confirmation, 'kind'>> = {
  name: 'Build Bot',
  host: 'ci.example.com',
  url: 'https://ci.example.com/hooks/notifier',
  command: 'npm run deploy -- --env staging',
  template: 'deploy-status',
  others: 'open-logs',
  replaces: 'npm run deploy',
  label: 'Delete branch',
  code: '4F7-K2Q',
  message: 'The reminder could not be saved.',
};

/** The panel of one confirmation, sample values filling what it leaves out. */
export function questionOf(confirmation: Confirmation): Question {
  const value = { ...SAMPLES, ...definedOnly(confirmation) };
  const allow = { label: 'Allow', style: 'prominent' as const };
  const deny = { label: "Don't Allow", style: 'default' as const };
  const run = { label: 'Run', style: 'prominent' as const };
  const cancel = { label: 'Cancel', style: 'default' as const };
  switch (confirmation.kind) {
    case 'callbackHost':
      return {
        title: `Send replies to ${value.host}?`,
        detail: [`${value.name} asks to call ${value.url}`],
        code: false,
        answers: [allow, deny],
      };
    case 'command':
      return { title: `Run a command for ${value.name}?`, detail: [value.command], code: true, answers: [run, cancel] };
    case 'script':
      return { title: `Run the script ${value.name}?`, detail: [value.command], code: true, answers: [run, cancel] };
    case 'shortcut':
      return { title: `Run the shortcut ${value.name}?`, detail: [value.command], code: true, answers: [run, cancel] };
    case 'templateCommand':
      return {
        title: `Template ${value.template} wants to run code`,
        detail: [value.command, `Also runs: ${value.others}`, `Replaces the approved: ${value.replaces}`],
        code: true,
        answers: [
          { label: 'Approve', style: 'prominent' },
          { label: 'Not Now', style: 'default' },
        ],
      };
    case 'destructiveAction':
      return {
        title: `${value.label}?`,
        detail: ['This cannot be undone.'],
        code: false,
        answers: [{ label: value.label, style: 'destructive' }, cancel],
      };
    case 'connectorConsent':
      return {
        title: `Let ${value.name} reach this computer?`,
        detail: [`${value.host} shows the code ${value.code}`],
        code: false,
        answers: [allow, deny],
      };
    case 'remindersError':
      return { title: 'The reminder was not added', detail: [value.message], code: false, answers: [{ label: 'OK', style: 'default' }] };
    case 'remindersDenied':
      return {
        title: 'Reminders are not allowed',
        detail: [confirmation.message?.trim() ? value.message : 'Notifier has not been given access to reminders.'],
        code: false,
        answers: [
          { label: 'Open Settings', style: 'prominent' },
          { label: 'OK', style: 'default' },
        ],
      };
  }
}

function definedOnly(confirmation: Confirmation): Partial<Confirmation> {
  return Object.fromEntries(Object.entries(confirmation).filter(([, value]) => typeof value === 'string' && value.trim() !== ''));
}
