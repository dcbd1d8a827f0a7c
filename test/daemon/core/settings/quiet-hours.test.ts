// Quiet hours evaluated with a clock the test sets (daemon/core/settings/quiet-hours.ts): windows across midnight and
// across days, inclusive starts and exclusive ends, the day a window belongs to, forgiving day names, the union
// of what is silenced, urgent break-through, the checks of a change and the order windows -> resume -> adHoc.
// Times are local: January 2025 starts on a Wednesday, so the 6th is a Monday.

import { describe, expect, test } from '@jest/globals';
import {
  effectiveStatus,
  minutesOfDay,
  nextChange,
  normalizeDay,
  occurrence,
  type QuietConfig,
  quietReply,
  quietStatus,
  type QuietWindow,
  summaryText,
  summaryWindowRunning,
  updateQuietHours,
} from '../../../../daemon/core/settings/quiet-hours.js';

/** January 2025, local time: 5 Sunday, 6 Monday, 7 Tuesday ... 11 Saturday, 12 Sunday. */
const at = (day: number, hours: number, minutes = 0, seconds = 0) => new Date(2025, 0, day, hours, minutes, seconds);

const window = (fields: Partial<QuietWindow>): QuietWindow => ({
  id: 'w',
  days: [],
  start: '22:30',
  end: '07:30',
  speech: true,
  sounds: false,
  banners: false,
  speakSummary: false,
  ...fields,
});

const config = (...windows: QuietWindow[]): QuietConfig => ({ windows });
const active = (w: QuietWindow, now: Date) => occurrence(w, now) !== null;

/** The 400 message a change gives, or null when it is accepted. */
function refusal(body: Record<string, unknown>, base: QuietConfig = config(), now = at(6, 12)): string | null {
  try {
    updateQuietHours(base, body, now);
    return null;
  } catch (error) {
    expect((error as { status?: number }).status).toBe(400);
    return (error as Error).message;
  }
}

describe('times and day names', () => {
  test('times are strict HH:MM from 00:00 to 23:59', () => {
    expect(minutesOfDay('00:00')).toBe(0);
    expect(minutesOfDay('07:30')).toBe(450);
    expect(minutesOfDay('23:59')).toBe(1439);
    for (const bad of ['7:30', '24:00', '23:60', '12:3', '12:30:00', ' 12:30', '', 'noon']) expect(minutesOfDay(bad)).toBeNull();
  });

  test('day names are forgiving: mon, Monday, MON, tues all name a day, stored as three lower-case letters', () => {
    expect(['mon', 'Monday', 'MON', ' monday '].map(normalizeDay)).toEqual(['mon', 'mon', 'mon', 'mon']);
    expect(['tues', 'THURS', 'Sat', 'sunday'].map(normalizeDay)).toEqual(['tue', 'thu', 'sat', 'sun']);
    expect(['mo', 'funday', 'mondays', ''].map(normalizeDay)).toEqual([null, null, null, null]);
  });
});

describe('which window runs when', () => {
  test('an overnight window belongs to the day it starts: Monday 22:30 runs into Tuesday morning', () => {
    const monday = window({ days: ['mon'] });
    expect(active(monday, at(6, 22, 29, 59))).toBe(false);
    expect(active(monday, at(6, 22, 30))).toBe(true); // the start is inside
    expect(active(monday, at(7, 0, 0))).toBe(true); // midnight
    expect(active(monday, at(7, 3, 0))).toBe(true);
    expect(active(monday, at(7, 7, 29, 59))).toBe(true);
    expect(active(monday, at(7, 7, 30))).toBe(false); // the end is outside
    expect(active(monday, at(7, 22, 30))).toBe(false); // Tuesday evening is not Monday's
    expect(active(monday, at(6, 3, 0))).toBe(false); // Monday morning belongs to Sunday's window, which does not run
    expect(active(monday, at(13, 23, 0))).toBe(true); // the next Monday
    expect(occurrence(monday, at(7, 1, 0))).toEqual({ start: at(6, 22, 30), end: at(7, 7, 30) });
  });

  test('a window on Sunday night runs into Monday, across the week boundary', () => {
    const sunday = window({ days: ['sun'], start: '23:00', end: '01:00' });
    expect(active(sunday, at(12, 23, 30))).toBe(true);
    expect(active(sunday, at(13, 0, 59))).toBe(true);
    expect(active(sunday, at(13, 1, 0))).toBe(false);
    expect(active(sunday, at(11, 23, 30))).toBe(false); // Saturday night
  });

  test('no days means every day', () => {
    const nightly = window({ start: '22:00', end: '06:00' });
    for (let day = 5; day <= 12; day++) {
      expect(active(nightly, at(day, 23, 0))).toBe(true);
      expect(active(nightly, at(day, 5, 59))).toBe(true);
      expect(active(nightly, at(day, 6, 0))).toBe(false);
      expect(active(nightly, at(day, 12, 0))).toBe(false);
    }
  });

  test('a daytime window runs on its days only, start inclusive and end exclusive', () => {
    const weekend = window({ days: ['sat', 'sun'], start: '09:00', end: '17:00' });
    expect(active(weekend, at(11, 9, 0))).toBe(true);
    expect(active(weekend, at(12, 16, 59))).toBe(true);
    expect(active(weekend, at(11, 17, 0))).toBe(false);
    expect(active(weekend, at(11, 8, 59))).toBe(false);
    expect(active(weekend, at(10, 10, 0))).toBe(false); // Friday
  });

  test('a window ending at 00:00 ends at the midnight after its start', () => {
    const friday = window({ days: ['fri'], start: '20:00', end: '00:00' });
    expect(active(friday, at(10, 23, 59, 59))).toBe(true);
    expect(active(friday, at(11, 0, 0))).toBe(false);
  });
});

describe('status', () => {
  test('nothing configured: nothing silenced, no until and no source', () => {
    expect(quietStatus(config(), at(6, 12))).toEqual({ active: false, speech: false, sounds: false, banners: false });
  });

  test('what is silenced is the union of the running windows and the ad hoc period; until is the latest end', () => {
    const speech = window({ id: 'a', start: '22:00', end: '06:00', speech: true });
    const screen = window({ id: 'b', start: '23:00', end: '07:00', speech: false, sounds: true, banners: true });
    const windows = config(speech, screen);
    expect(quietStatus(windows, at(6, 22, 30))).toEqual({
      active: true,
      speech: true,
      sounds: false,
      banners: false,
      until: at(7, 6).toISOString(),
      source: 'window',
    });
    expect(quietStatus(windows, at(7, 1))).toEqual({
      active: true,
      speech: true,
      sounds: true,
      banners: true,
      until: at(7, 7).toISOString(),
      source: 'window',
    });
    const withAdHoc: QuietConfig = { ...windows, adHoc: { until: at(7, 9).toISOString(), speech: false, sounds: false, banners: true } };
    expect(quietStatus(withAdHoc, at(7, 1))).toMatchObject({ source: 'both', until: at(7, 9).toISOString() });
    expect(quietStatus(withAdHoc, at(7, 8))).toEqual({
      active: true,
      speech: false,
      sounds: false,
      banners: true,
      until: at(7, 9).toISOString(),
      source: 'adhoc',
    });
    expect(quietStatus(withAdHoc, at(7, 9)).active).toBe(false); // the ad hoc end is exclusive too
  });

  test('a window that silences nothing is not quiet', () => {
    const nothing = window({ speech: false, sounds: false, banners: false });
    expect(quietStatus(config(nothing), at(6, 23)).active).toBe(false);
  });

  test('urgent breaks through only for an app that allows it', () => {
    const status = quietStatus(config(window({ banners: true, sounds: true })), at(6, 23));
    const open = { active: false, speech: false, sounds: false, banners: false };
    expect(effectiveStatus(status, 'urgent', true)).toEqual(open);
    expect(effectiveStatus(status, 'urgent', false)).toBe(status);
    expect(effectiveStatus(status, 'high', true)).toBe(status);
    expect(effectiveStatus(status, undefined, true)).toBe(status);
  });

  test('a summary window is one that asks for it and silences speech', () => {
    expect(summaryWindowRunning(config(window({ speakSummary: true })), at(6, 23))).toBe(true);
    expect(summaryWindowRunning(config(window({ speakSummary: true })), at(6, 12))).toBe(false);
    expect(summaryWindowRunning(config(window({ speakSummary: true, speech: false, banners: true })), at(6, 23))).toBe(false);
    expect(summaryWindowRunning(config(window({})), at(6, 23))).toBe(false);
  });

  test('the next change is the next start or end, the end of the ad hoc period, or none', () => {
    const monday = config(window({ days: ['mon'] }));
    expect(nextChange(monday, at(6, 12))).toEqual(at(6, 22, 30));
    expect(nextChange(monday, at(6, 23))).toEqual(at(7, 7, 30));
    expect(nextChange(monday, at(7, 8))).toEqual(at(13, 22, 30)); // a week later
    expect(nextChange(config(), at(6, 12))).toBeNull();
    const adHoc: QuietConfig = { windows: [], adHoc: { until: at(6, 12, 45).toISOString(), speech: true, sounds: true, banners: false } };
    expect(nextChange(adHoc, at(6, 12))).toEqual(at(6, 12, 45));
  });
});

describe('changes: checks', () => {
  test('windows are normalised: days lower-case and once each, an id made when absent, flags defaulted', () => {
    const next = updateQuietHours(
      config(),
      { windows: [{ days: ['Monday', 'TUE', 'wed', 'mon'], start: '22:30', end: '07:30' }] },
      at(6, 12),
    );
    // window()'s flags are the defaults: speech on, sounds, banners and the spoken summary off.
    expect(next.windows).toEqual([{ ...window({ days: ['mon', 'tue', 'wed'] }), id: expect.any(String) }]);
    expect(next.windows[0]!.id).not.toBe('');
  });

  test.each([
    [{ windows: [{ start: '7:30', end: '08:00' }] }, 'windows[0].start must be HH:MM (24-hour)'],
    [{ windows: [{ start: '07:30' }] }, 'windows[0].end must be HH:MM (24-hour)'],
    [{ windows: [{ start: '07:30', end: '24:00' }] }, 'windows[0].end must be HH:MM (24-hour)'],
    [{ windows: [{ start: '07:30', end: '07:30' }] }, 'windows[0]: start and end are the same'],
    [{ windows: [{ start: '07:30', end: '08:00', days: ['mon', 'someday'] }] }, "windows[0].days: unknown day 'someday'"],
    [{ windows: [{ start: '07:30', end: '08:00', days: 'mon' }] }, 'windows[0].days must be an array of day names'],
    [{ windows: [{ start: '07:30', end: '08:00', sounds: 'yes' }] }, 'windows[0].sounds must be true or false'],
    [{ windows: [{ start: '07:30', end: '08:00', id: '' }] }, 'windows[0].id must be a non-empty string of at most 128 bytes'],
    [
      {
        windows: [
          { id: 'a', start: '01:00', end: '02:00' },
          { id: 'a', start: '03:00', end: '04:00' },
        ],
      },
      'windows[1]: duplicate id',
    ],
    [
      { windows: [{ start: '07:30', end: '08:00', colour: 'red' }] },
      'unknown field: windows[0].colour (known: id, days, start, end, speech, sounds, banners, speakSummary)',
    ],
    [{ windows: 'nightly' }, 'windows must be an array'],
    [{ windows: ['22:00-06:00'] }, 'windows[0] must be an object'],
    [{ resume: 'yes' }, 'resume must be true or false'],
    [{ quiet: true }, 'unknown field: quiet (known: windows, resume, adHoc)'],
    [{ adHoc: {} }, 'adHoc needs until or minutes'],
    [{ adHoc: 30 }, 'adHoc must be an object'],
    [{ adHoc: { minutes: 0 } }, 'adHoc.minutes must be greater than 0 and at most 10080'],
    [{ adHoc: { minutes: 10081 } }, 'adHoc.minutes must be greater than 0 and at most 10080'],
    [{ adHoc: { minutes: '30' } }, 'adHoc.minutes must be greater than 0 and at most 10080'],
    [{ adHoc: { until: 'noon' } }, 'adHoc.until must be HH:MM or an ISO 8601 date'],
    [{ adHoc: { until: 1200 } }, 'adHoc.until must be HH:MM or an ISO 8601 date'],
    [{ adHoc: { until: '2025-01-06T11:00:00' } }, 'adHoc.until is in the past'],
    [{ adHoc: { until: '13:00', minutes: 5 } }, 'adHoc takes until or minutes, not both'],
    [{ adHoc: { minutes: 5, banners: 1 } }, 'adHoc.banners must be true or false'],
  ])('%j is refused: %s', (body, message) => {
    expect(refusal(body)).toBe(message);
  });

  test('at most 24 windows', () => {
    const windows = (n: number) => Array.from({ length: n }, (_, k) => ({ id: `w${k}`, start: '01:00', end: '02:00' }));
    expect(refusal({ windows: windows(24) })).toBeNull();
    expect(refusal({ windows: windows(25) })).toBe('at most 24 windows');
  });

  test('a refused change changes nothing, even when a good part came first', () => {
    const base = config(window({ id: 'kept' }));
    expect(refusal({ windows: [{ start: '01:00', end: '02:00' }], adHoc: { minutes: 0 } }, base)).not.toBeNull();
    expect(base).toEqual(config(window({ id: 'kept' })));
  });
});

describe('changes: the ad hoc period', () => {
  const now = at(6, 22, 0);
  const adHocOf = (adHoc: Record<string, unknown>) => updateQuietHours(config(), { adHoc }, now).adHoc;

  test('minutes from now; speech and sounds silenced and banners shown unless told', () => {
    expect(adHocOf({ minutes: 30 })).toEqual({ until: at(6, 22, 30).toISOString(), speech: true, sounds: true, banners: false });
    expect(adHocOf({ minutes: 0.5, banners: true, speech: false })).toEqual({
      until: at(6, 22, 0, 30).toISOString(),
      speech: false,
      sounds: true,
      banners: true,
    });
    expect(adHocOf({ minutes: 10080 })!.until).toBe(at(13, 22, 0).toISOString());
  });

  test('until HH:MM is its next occurrence: later today, or tomorrow when it has passed or is now', () => {
    expect(adHocOf({ until: '23:15' })!.until).toBe(at(6, 23, 15).toISOString());
    expect(adHocOf({ until: '07:00' })!.until).toBe(at(7, 7, 0).toISOString());
    expect(adHocOf({ until: '22:00' })!.until).toBe(at(7, 22, 0).toISOString());
  });

  test('until may be a future ISO 8601 date: with a zone, local without one, a date alone is its midnight', () => {
    expect(adHocOf({ until: '2025-01-08T09:00:00Z' })!.until).toBe('2025-01-08T09:00:00.000Z');
    expect(adHocOf({ until: '2025-01-08T09:00' })!.until).toBe(at(8, 9).toISOString());
    expect(adHocOf({ until: '2025-01-08' })!.until).toBe(at(8, 0).toISOString());
  });

  test('an ad hoc period that is over is not shown', () => {
    const state: QuietConfig = { windows: [], adHoc: { until: at(6, 22, 30).toISOString(), speech: true, sounds: true, banners: false } };
    expect(quietReply(state, at(6, 22, 10)).adHoc).toBeDefined();
    expect(quietReply(state, at(6, 22, 30))).toEqual({
      windows: [],
      status: { active: false, speech: false, sounds: false, banners: false },
    });
  });
});

describe('changes: resume, and the order windows -> resume -> adHoc', () => {
  const nightly = window({ id: 'night', start: '22:00', end: '06:00' });
  const base: QuietConfig = { windows: [nightly], adHoc: { until: at(7, 1).toISOString(), speech: true, sounds: true, banners: true } };

  test('resume ends the ad hoc period and the current occurrence of the running windows, not the next one', () => {
    const resumed = updateQuietHours(base, { resume: true }, at(6, 23));
    expect(resumed.adHoc).toBeUndefined();
    expect(quietStatus(resumed, at(6, 23)).active).toBe(false);
    expect(quietStatus(resumed, at(7, 2)).active).toBe(false);
    expect(quietStatus(resumed, at(7, 22)).active).toBe(true); // the next night is quiet again
  });

  test('an ad hoc period in the same change comes after the resume, so it starts', () => {
    const next = updateQuietHours(base, { adHoc: { minutes: 10 }, resume: true }, at(6, 23));
    expect(quietStatus(next, at(6, 23, 5))).toMatchObject({ active: true, source: 'adhoc', until: at(6, 23, 10).toISOString() });
    expect(quietStatus(next, at(6, 23, 15)).active).toBe(false);
  });

  test('windows in the same change come first: the resume ends the new windows', () => {
    const other = { id: 'late', start: '22:30', end: '05:00' };
    const next = updateQuietHours(base, { windows: [other], resume: true }, at(6, 23));
    expect(next.windows.map((w) => w.id)).toEqual(['late']);
    expect(quietStatus(next, at(6, 23)).active).toBe(false);
    expect(quietStatus(next, at(7, 23)).active).toBe(true);
  });

  test('new windows clear an earlier resume', () => {
    const resumed = updateQuietHours(base, { resume: true }, at(6, 23));
    const replaced = updateQuietHours(resumed, { windows: [{ id: 'night', start: '22:00', end: '06:00' }] }, at(6, 23, 30));
    expect(quietStatus(replaced, at(6, 23, 30)).active).toBe(true);
  });

  test('resume with nothing running changes nothing', () => {
    expect(updateQuietHours(config(nightly), { resume: true }, at(6, 12))).toEqual(config(nightly));
  });
});

describe('the spoken summary', () => {
  test('counts every message, names the first four, and says how many more', () => {
    expect(summaryText([])).toBeNull();
    expect(summaryText(['Build failed'])).toBe('1 message while you were away: Build failed');
    expect(summaryText(['A', 'B'])).toBe('2 messages while you were away: A, B');
    expect(summaryText(['A', 'B', 'C', 'D'])).toBe('4 messages while you were away: A, B, C, D');
    expect(summaryText(['A', 'B', 'C', 'D', 'E', 'F'])).toBe('6 messages while you were away: A, B, C, D, and 2 more');
  });

  test('Markdown links read as their label and white space is collapsed', () => {
    expect(summaryText(['See [the log](https://x.test/log)', '  two\n lines '])).toBe(
      '2 messages while you were away: See the log, two lines',
    );
  });
});
