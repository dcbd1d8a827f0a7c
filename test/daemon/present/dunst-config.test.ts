import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { DUNST_DEFAULT_MENU, dunstConfigFiles, dunstMenu, globalSetting } from '../../../daemon/present/dunst-config.js';
import { tempFolderSync } from '../../helpers/daemon.js';

// Finding dunst's menu program as dunst finds its settings: -config, else the first dunstrc of the XDG config
// folders with its drop-ins; the [global] section's `dmenu`; the program on dunst's PATH.

const root = tempFolderSync('notifier-dunstrc-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): string => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};

describe("dunst's menu program", () => {
  test("without any dunstrc, dunst's default: /usr/bin/dmenu -p dunst:", () => {
    const menu = dunstMenu({ argv: ['dunst'], env: { HOME: path.join(root, 'nobody'), XDG_CONFIG_DIRS: path.join(root, 'none') } });
    expect(menu).toMatchObject({ command: DUNST_DEFAULT_MENU, program: '/usr/bin/dmenu', source: null });
  });

  test('the first dunstrc of XDG_CONFIG_HOME then XDG_CONFIG_DIRS, with its drop-ins in name order', () => {
    const home = path.join(root, 'home', '.config');
    const system = path.join(root, 'etc', 'xdg');
    write(path.join(system, 'dunst', 'dunstrc'), '[global]\n    dmenu = /system/dmenu\n');
    const env = { HOME: path.join(root, 'home'), XDG_CONFIG_DIRS: `${path.join(root, 'missing')}:${system}` };
    expect(dunstConfigFiles({ argv: ['dunst'], env })).toEqual([path.join(system, 'dunst', 'dunstrc')]);

    const own = write(path.join(home, 'dunst', 'dunstrc'), '[global]\n    font = Monospace 8\n');
    const later = write(path.join(home, 'dunst', 'dunstrc.d', '20-menu.conf'), '[global]\ndmenu = "rofi -dmenu -p dunst"\n');
    const earlier = write(path.join(home, 'dunst', 'dunstrc.d', '10-menu.conf'), '[global]\ndmenu = wofi --dmenu\n');
    write(path.join(home, 'dunst', 'dunstrc.d', 'notes.txt'), '[global]\ndmenu = never\n');
    expect(dunstConfigFiles({ argv: ['dunst'], env })).toEqual([own, earlier, later]);
    expect(dunstMenu({ argv: ['dunst'], env: { ...env, PATH: '' } })).toMatchObject({
      command: 'rofi -dmenu -p dunst',
      program: 'rofi',
      source: later,
      installed: false,
    });
  });

  test("-config names the only file read; the program is looked up on dunst's PATH", () => {
    const bin = path.join(root, 'bin');
    write(path.join(bin, 'mymenu'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'mymenu'), 0o755);
    const config = write(
      path.join(root, 'custom', 'rc'),
      '# a comment\n[urgency_low]\ndmenu = not this\n[global]\n  dmenu = mymenu -l 10\n',
    );
    const dunst = { argv: ['/usr/bin/dunst', '-config', config], env: { PATH: `/nowhere:${bin}` } };
    expect(dunstMenu(dunst)).toMatchObject({ program: 'mymenu', source: config, installed: true });
    expect(dunstMenu({ ...dunst, env: { PATH: '/nowhere' } }).installed).toBe(false);
    expect(dunstConfigFiles({ argv: ['dunst', '-conf', '-'], env: {} })).toEqual([]); // settings from stdin: unknown
  });

  test('only the [global] section counts, and the last value wins', () => {
    expect(globalSetting('[global]\ndmenu = a\n[global]\ndmenu = b\n', 'dmenu')).toBe('b');
    expect(globalSetting('[play_sound]\ndmenu = a\n', 'dmenu')).toBeUndefined();
    expect(globalSetting('[global]\n;dmenu = a\n#dmenu = b\n', 'dmenu')).toBeUndefined();
  });
});
