// Icons: lucide's SVG files (lucide-static), imported as text at build time, so the bundle holds only the icons
// named here. Each file is a flat <svg> of simple shapes; it is read once into Preact elements (never set as
// HTML), and drawn in the text's colour.

import { h, type VNode } from 'preact';
import alarmClockOff from 'lucide-static/icons/alarm-clock-off.svg?raw';
import arrowLeft from 'lucide-static/icons/arrow-left.svg?raw';
import bellOff from 'lucide-static/icons/bell-off.svg?raw';
import checkCheck from 'lucide-static/icons/check-check.svg?raw';
import chevronDown from 'lucide-static/icons/chevron-down.svg?raw';
import chevronsUp from 'lucide-static/icons/chevrons-up.svg?raw';
import circleCheck from 'lucide-static/icons/circle-check.svg?raw';
import clock from 'lucide-static/icons/clock.svg?raw';
import cloud from 'lucide-static/icons/cloud.svg?raw';
import copy from 'lucide-static/icons/copy.svg?raw';
import download from 'lucide-static/icons/download.svg?raw';
import eyeOff from 'lucide-static/icons/eye-off.svg?raw';
import fileCode from 'lucide-static/icons/file-code.svg?raw';
import filter from 'lucide-static/icons/funnel.svg?raw';
import globe from 'lucide-static/icons/globe.svg?raw';
import hourglass from 'lucide-static/icons/hourglass.svg?raw';
import inbox from 'lucide-static/icons/inbox.svg?raw';
import keyboard from 'lucide-static/icons/keyboard.svg?raw';
import logOut from 'lucide-static/icons/log-out.svg?raw';
import mail from 'lucide-static/icons/mail.svg?raw';
import mailOpen from 'lucide-static/icons/mail-open.svg?raw';
import messageSquareReply from 'lucide-static/icons/message-square-reply.svg?raw';
import monitor from 'lucide-static/icons/monitor.svg?raw';
import monitorUp from 'lucide-static/icons/monitor-up.svg?raw';
import moon from 'lucide-static/icons/moon.svg?raw';
import moonStar from 'lucide-static/icons/moon-star.svg?raw';
import octagonAlert from 'lucide-static/icons/octagon-alert.svg?raw';
import palette from 'lucide-static/icons/palette.svg?raw';
import plus from 'lucide-static/icons/plus.svg?raw';
import radioTower from 'lucide-static/icons/radio-tower.svg?raw';
import search from 'lucide-static/icons/search.svg?raw';
import send from 'lucide-static/icons/send.svg?raw';
import settings from 'lucide-static/icons/settings.svg?raw';
import shieldCheck from 'lucide-static/icons/shield-check.svg?raw';
import squarePen from 'lucide-static/icons/square-pen.svg?raw';
import sun from 'lucide-static/icons/sun.svg?raw';
import terminal from 'lucide-static/icons/terminal.svg?raw';
import trash from 'lucide-static/icons/trash-2.svg?raw';
import triangleAlert from 'lucide-static/icons/triangle-alert.svg?raw';
import undo2 from 'lucide-static/icons/undo-2.svg?raw';
import x from 'lucide-static/icons/x.svg?raw';

const SOURCES = {
  alarmClockOff,
  arrowLeft,
  bellOff,
  checkCheck,
  chevronDown,
  chevronsUp,
  circleCheck,
  clock,
  cloud,
  copy,
  download,
  eyeOff,
  fileCode,
  filter,
  globe,
  hourglass,
  inbox,
  keyboard,
  logOut,
  mail,
  mailOpen,
  messageSquareReply,
  monitor,
  monitorUp,
  moon,
  moonStar,
  octagonAlert,
  palette,
  plus,
  radioTower,
  search,
  send,
  settings,
  shieldCheck,
  squarePen,
  sun,
  terminal,
  trash,
  triangleAlert,
  undo2,
  x,
};

export type IconName = keyof typeof SOURCES;

interface Shape {
  tag: string;
  attributes: Record<string, string>;
}

const SHAPE = /<(\w+)((?:\s+[\w-]+="[^"]*")*)\s*\/>/g;
const ATTRIBUTE = /([\w-]+)="([^"]*)"/g;

/** The shapes inside an icon's <svg> (lucide's files hold only self-closing shapes). */
function shapes(svg: string): Shape[] {
  const inner = svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1);
  return [...inner.matchAll(SHAPE)].map(([, tag, attributes]) => ({
    tag: tag!,
    attributes: Object.fromEntries([...attributes!.matchAll(ATTRIBUTE)].map(([, name, value]) => [name!, value!])),
  }));
}

/** Every icon's shapes, read once when the module loads (a few dozen small files: well under a millisecond). */
const SHAPES = Object.fromEntries(Object.entries(SOURCES).map(([name, svg]) => [name, shapes(svg)])) as Record<IconName, Shape[]>;

/** A decorative icon (hidden from assistive technology: the control next to it carries the name). */
export function Icon({ name, class: className }: { name: IconName; class?: string }): VNode {
  return (
    <svg
      class={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {SHAPES[name].map((shape) => h(shape.tag, shape.attributes))}
    </svg>
  );
}
