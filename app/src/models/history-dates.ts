// History's date range as a person gives it: a preset (Today, Last 7 days, This month) or dates typed in From and To.
// The dates are typed in text fields, not the browser's date fields: in Chromium a date field takes Tab to move
// between its own parts (month, day, year), so a person who typed a date and pressed Tab was still in From, and a
// date typed the ISO way ("2025-03-01") came out as another date. A typed date is read in the order this browser
// writes dates (03/01/2025 in the US, 01/03/2025 in Britain, 01.03.2025 in Germany) or as YYYY-MM-DD.

/** The choices beside the dates; `custom` shows From and To. */
export const DATE_PRESETS = ['any', 'today', 'week', 'month', 'custom'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  any: 'Any time',
  today: 'Today',
  week: 'Last 7 days',
  month: 'This month',
  custom: 'Custom dates',
};

/** `YYYY-MM-DD` of a local date. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The range a preset stands for on `today` (local dates; `custom` and `any` leave the range to the person). */
export function presetRange(preset: DatePreset, today: Date): { from: string; to: string } {
  const days = (back: number): string => isoDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - back));
  if (preset === 'today') return { from: days(0), to: days(0) };
  if (preset === 'week') return { from: days(6), to: days(0) };
  if (preset === 'month') return { from: isoDay(new Date(today.getFullYear(), today.getMonth(), 1)), to: days(0) };
  return { from: '', to: '' };
}

type Part = 'day' | 'month' | 'year';

/** How this browser writes a date with numbers: the order of its parts and what stands between them. */
export interface DateShape {
  order: Part[];
  /** "MM/DD/YYYY": the field's placeholder. */
  pattern: string;
  format: Intl.DateTimeFormat;
}

export function dateShape(locale?: string): DateShape {
  const format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const parts = format.formatToParts(new Date(2001, 10, 22));
  const order = parts.filter((part): part is Intl.DateTimeFormatPart & { type: Part } => ['day', 'month', 'year'].includes(part.type));
  const names: Record<Part, string> = { day: 'DD', month: 'MM', year: 'YYYY' };
  return {
    order: order.map((part) => part.type),
    pattern: parts.map((part) => (part.type in names ? names[part.type as Part] : part.value)).join(''),
    format,
  };
}

/** A typed date as `YYYY-MM-DD`; '' for an empty field; null for what is not a date. */
export function readTypedDate(text: string, shape: DateShape): string | null {
  const numbers = text
    .trim()
    .split(/[^0-9]+/)
    .filter(Boolean);
  if (numbers.length === 0) return '';
  if (numbers.length !== 3) return null;
  // Four digits first is the ISO order, whatever the browser's.
  const order: Part[] = numbers[0]!.length === 4 ? ['year', 'month', 'day'] : shape.order;
  const value = Object.fromEntries(order.map((part, index) => [part, Number(numbers[index])])) as Record<Part, number>;
  if (value.year < 100) value.year += 2000;
  const date = new Date(value.year, value.month - 1, value.day);
  const real = date.getFullYear() === value.year && date.getMonth() === value.month - 1 && date.getDate() === value.day;
  return real ? isoDay(date) : null;
}

/** A `YYYY-MM-DD` date as this browser writes it ("03/01/2025"). */
export function shownDate(iso: string, shape: DateShape): string {
  if (!iso) return '';
  const [year, month, day] = iso.split('-').map(Number);
  return shape.format.format(new Date(year!, month! - 1, day!));
}
