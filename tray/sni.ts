// The tray on Linux: its own StatusNotifierItem (org.kde.StatusNotifierItem) with its menu over
// com.canonical.dbusmenu, on the session bus, registered with the panel's org.kde.StatusNotifierWatcher. Every
// StatusNotifierItem host draws it: KDE Plasma, GNOME with the AppIndicator extension, xfce4-panel, waybar, LXQt.
// Why not systray2's binary here: docs/desktop.md#two-ways-of-drawing-it.

import { Image, createCanvas } from 'canvas';
import dbus from 'dbus-next';
import { busDaemon, setUpOnBus } from '../daemon/integrations/dbus-bus.js';
import type { StartTray, Tray, TrayEntry, TrayLook, TrayStatus } from './backend.js';

const WATCHER = 'org.kde.StatusNotifierWatcher';
const WATCHER_PATH = '/StatusNotifierWatcher';
const ITEM_INTERFACE = 'org.kde.StatusNotifierItem';
const MENU_INTERFACE = 'com.canonical.dbusmenu';
/** Where the item and its menu are (the watcher looks for the item at this path under the bus name we give it). */
const ITEM_PATH = '/StatusNotifierItem';
const MENU_PATH = '/MenuBar';
/** The item's id: panels remember their settings for it (shown, hidden, its place) under this name. */
const ITEM_ID = 'notifier';
/** The dbusmenu protocol version this menu speaks. */
const DBUSMENU_VERSION = 3;
/** dbusmenu's root item: the menu itself; the entries are its children, numbered from 1 in menu order. */
const ROOT_ID = 0;
/** The layout never changes: entries are shown and hidden in place. */
const LAYOUT_REVISION = 1;
/** How long connecting to the session bus and taking our name may take before the tray gives up. */
const CONNECT_TIMEOUT_MS = 5_000;

const { Interface } = dbus.interface;
/** Properties the host only reads (each member's D-Bus signature): what the panel and the menu host ask for. */
const readOnly = (signatures: Record<string, string>) =>
  Object.fromEntries(Object.entries(signatures).map(([name, signature]) => [name, { signature, access: 'read' as const }]));

type Pixmap = [width: number, height: number, argb: Buffer];
type Properties = Record<string, dbus.Variant>;
type Layout = [id: number, properties: Properties, children: dbus.Variant[]];

const invalidId = (id: number) => new dbus.DBusError('org.freedesktop.DBus.Error.InvalidArgs', `no menu item ${id}`);

/**
 * The icon as StatusNotifierItem wants it: ARGB32, each pixel's bytes in network order (alpha, red, green, blue).
 * With `badge`, an orange dot in the corner: the attention icon (something waits for the person).
 */
export function pixmapOf(png: Buffer, badge = false): Pixmap {
  const image = new Image();
  image.src = png; // decoded at once from a Buffer
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  if (badge) {
    const radius = image.width / 5;
    context.beginPath();
    context.arc(image.width - radius - 1, radius + 1, radius, 0, 2 * Math.PI);
    context.fillStyle = '#f28c00';
    context.fill();
    context.lineWidth = 1.5;
    context.strokeStyle = '#ffffff';
    context.stroke();
  }
  const rgba = context.getImageData(0, 0, image.width, image.height).data;
  const argb = Buffer.alloc(rgba.length);
  for (let at = 0; at < rgba.length; at += 4) {
    argb[at] = rgba[at + 3]!;
    argb[at + 1] = rgba[at]!;
    argb[at + 2] = rgba[at + 1]!;
    argb[at + 3] = rgba[at + 2]!;
  }
  return [image.width, image.height, argb];
}

/** dbusmenu reads "_" as the mark of an access key and drops it; "__" shows one underscore. */
const menuLabel = (text: string): string => text.replace(/_/g, '__');

/** An entry's dbusmenu properties, all of them (none left at its default, so an update never removes one). */
function propertiesOf(entry: TrayEntry): Properties {
  const visible = new dbus.Variant('b', entry.visible);
  if (entry.separator) return { type: new dbus.Variant('s', 'separator'), visible };
  const properties: Properties = {
    label: new dbus.Variant('s', menuLabel(entry.label)),
    enabled: new dbus.Variant('b', entry.enabled),
    visible,
  };
  if (entry.checked !== null) {
    properties['toggle-type'] = new dbus.Variant('s', 'checkmark');
    properties['toggle-state'] = new dbus.Variant('i', entry.checked ? 1 : 0);
  }
  return properties;
}

/** Only the properties a host asked for (all when it names none). */
const only = (properties: Properties, names: string[]): Properties =>
  names.length === 0 ? properties : Object.fromEntries(Object.entries(properties).filter(([name]) => names.includes(name)));

/** The StatusNotifierItem: what the panel shows (icon, title, tooltip, status) and where the menu is. */
class StatusNotifierItem extends Interface {
  status: TrayStatus;
  private readonly icon: Pixmap[];
  private readonly attentionIcon: Pixmap[];

  constructor(
    private readonly look: TrayLook,
    status: TrayStatus,
  ) {
    super(ITEM_INTERFACE);
    this.status = status;
    this.icon = [pixmapOf(look.icon)];
    this.attentionIcon = [pixmapOf(look.icon, true)];
  }

  get Category(): string {
    return 'ApplicationStatus';
  }
  get Id(): string {
    return ITEM_ID;
  }
  get Title(): string {
    return this.look.name;
  }
  get Status(): string {
    return this.status.attention ? 'NeedsAttention' : 'Active';
  }
  get WindowId(): number {
    return 0;
  }
  get IconThemePath(): string {
    return '';
  }
  get IconName(): string {
    return ''; // no themed icon: hosts draw IconPixmap
  }
  get IconPixmap(): Pixmap[] {
    return this.icon;
  }
  get OverlayIconName(): string {
    return '';
  }
  get OverlayIconPixmap(): Pixmap[] {
    return [];
  }
  get AttentionIconName(): string {
    return '';
  }
  get AttentionIconPixmap(): Pixmap[] {
    // Only while attention is asked: xfce4-panel keeps drawing an attention icon it has once drawn until the
    // property itself changes, whatever the status says.
    return this.status.attention ? this.attentionIcon : [];
  }
  get AttentionMovieName(): string {
    return '';
  }
  get ToolTip(): [string, Pixmap[], string, string] {
    return ['', [], this.look.name, this.status.summary];
  }
  get ItemIsMenu(): boolean {
    return true; // a click shows the menu: the tray has no window to open
  }
  get Menu(): string {
    return MENU_PATH;
  }

  // A host calls these only when it does not show the menu itself (ItemIsMenu): nothing to do.
  ContextMenu(): void {}
  Activate(): void {}
  SecondaryActivate(): void {}
  Scroll(): void {}

  // Signals: calling one sends it.
  NewTitle(): void {}
  NewIcon(): void {}
  NewAttentionIcon(): void {}
  NewOverlayIcon(): void {}
  NewToolTip(): void {}
  NewStatus(status: string): string {
    return status;
  }
}

StatusNotifierItem.configureMembers({
  properties: readOnly({
    Category: 's',
    Id: 's',
    Title: 's',
    Status: 's',
    WindowId: 'i',
    IconThemePath: 's',
    IconName: 's',
    IconPixmap: 'a(iiay)',
    OverlayIconName: 's',
    OverlayIconPixmap: 'a(iiay)',
    AttentionIconName: 's',
    AttentionIconPixmap: 'a(iiay)',
    AttentionMovieName: 's',
    ToolTip: '(sa(iiay)ss)',
    ItemIsMenu: 'b',
    Menu: 'o',
  }),
  methods: {
    ContextMenu: { inSignature: 'ii' },
    Activate: { inSignature: 'ii' },
    SecondaryActivate: { inSignature: 'ii' },
    Scroll: { inSignature: 'is' },
  },
  signals: {
    NewTitle: { signature: '' },
    NewIcon: { signature: '' },
    NewAttentionIcon: { signature: '' },
    NewOverlayIcon: { signature: '' },
    NewToolTip: { signature: '' },
    NewStatus: { signature: 's' },
  },
});

/** The menu over com.canonical.dbusmenu: a root (id 0) whose children are the entries, ids 1, 2, ... */
class DBusMenu extends Interface {
  constructor(
    private readonly entries: TrayEntry[],
    private readonly onClick: (index: number) => void,
  ) {
    super(MENU_INTERFACE);
  }

  get Version(): number {
    return DBUSMENU_VERSION;
  }
  get TextDirection(): string {
    return 'ltr';
  }
  get Status(): string {
    return 'normal';
  }
  get IconThemePath(): string[] {
    return [];
  }

  GetLayout(parentId: number, recursionDepth: number, propertyNames: string[]): [number, Layout] {
    if (parentId === ROOT_ID) {
      const children =
        recursionDepth === 0
          ? []
          : this.entries.map((entry, index) => new dbus.Variant('(ia{sv}av)', [index + 1, only(propertiesOf(entry), propertyNames), []]));
      return [LAYOUT_REVISION, [ROOT_ID, only(this.properties(ROOT_ID), propertyNames), children]];
    }
    return [LAYOUT_REVISION, [parentId, only(this.properties(parentId), propertyNames), []]];
  }

  GetGroupProperties(ids: number[], propertyNames: string[]): Array<[number, Properties]> {
    const wanted = ids.length === 0 ? [ROOT_ID, ...this.entries.map((_, index) => index + 1)] : ids;
    return wanted.filter((id) => this.known(id)).map((id) => [id, only(this.properties(id), propertyNames)]);
  }

  GetProperty(id: number, name: string): dbus.Variant {
    const value = this.properties(id)[name];
    if (!value) throw new dbus.DBusError('org.freedesktop.DBus.Error.InvalidArgs', `menu item ${id} has no ${name}`);
    return value;
  }

  Event(id: number, eventId: string): void {
    if (!this.known(id)) throw invalidId(id);
    this.handle(id, eventId);
  }

  EventGroup(events: Array<[number, string, dbus.Variant, number]>): number[] {
    const unknown = events.filter(([id]) => !this.known(id)).map(([id]) => id);
    for (const [id, eventId] of events) if (this.known(id)) this.handle(id, eventId);
    return unknown;
  }

  AboutToShow(): boolean {
    return false; // the menu is always up to date: the tray updates it as things change
  }

  AboutToShowGroup(ids: number[]): [number[], number[]] {
    return [[], ids.filter((id) => !this.known(id))];
  }

  // Signals: calling one sends it.
  ItemsPropertiesUpdated(updated: Array<[number, Properties]>, removed: Array<[number, string[]]>): [typeof updated, typeof removed] {
    return [updated, removed];
  }
  LayoutUpdated(revision: number, parent: number): [number, number] {
    return [revision, parent];
  }
  ItemActivationRequested(id: number, timestamp: number): [number, number] {
    return [id, timestamp];
  }

  /** Sends the new properties of the entries that changed. */
  changed(indexes: number[]): void {
    if (indexes.length > 0)
      this.ItemsPropertiesUpdated(
        indexes.map((index) => [index + 1, propertiesOf(this.entries[index]!)]),
        [],
      );
  }

  private known(id: number): boolean {
    return Number.isInteger(id) && id >= ROOT_ID && id <= this.entries.length;
  }

  private properties(id: number): Properties {
    if (!this.known(id)) throw invalidId(id);
    return id === ROOT_ID ? { 'children-display': new dbus.Variant('s', 'submenu') } : propertiesOf(this.entries[id - 1]!);
  }

  /** A click on an entry that can be chosen; hovers, opening and closing need nothing. */
  private handle(id: number, eventId: string): void {
    const entry = this.entries[id - 1];
    if (eventId === 'clicked' && entry && !entry.separator && entry.enabled && entry.visible) this.onClick(id - 1);
  }
}

DBusMenu.configureMembers({
  properties: readOnly({
    Version: 'u',
    TextDirection: 's',
    Status: 's',
    IconThemePath: 'as',
  }),
  methods: {
    GetLayout: { inSignature: 'iias', outSignature: 'u(ia{sv}av)' },
    GetGroupProperties: { inSignature: 'aias', outSignature: 'a(ia{sv})' },
    GetProperty: { inSignature: 'is', outSignature: 'v' },
    Event: { inSignature: 'isvu' },
    EventGroup: { inSignature: 'a(isvu)', outSignature: 'ai' },
    AboutToShow: { inSignature: 'i', outSignature: 'b' },
    AboutToShowGroup: { inSignature: 'ai', outSignature: 'aiai' },
  },
  signals: {
    ItemsPropertiesUpdated: { signature: 'a(ia{sv})a(ias)' },
    LayoutUpdated: { signature: 'ui' },
    ItemActivationRequested: { signature: 'iu' },
  },
});

/** Asks the panel's watcher, if one runs, to show the item named `busName`. */
async function register(bus: dbus.MessageBus, busName: string): Promise<void> {
  await bus
    .call(
      new dbus.Message({
        destination: WATCHER,
        path: WATCHER_PATH,
        interface: WATCHER,
        member: 'RegisterStatusNotifierItem',
        signature: 's',
        body: [busName],
      }),
    )
    .catch(() => undefined); // no watcher (no panel that shows items) yet: registered when one appears
}

/**
 * Puts the item on the session bus under `org.kde.StatusNotifierItem-<pid>-1` and registers it with the watcher,
 * now and whenever a watcher appears later (a panel started or restarted after the tray).
 */
export const startStatusNotifierItem: StartTray = async (look, menu, onClick) => {
  const busName = `${ITEM_INTERFACE}-${process.pid}-1`;
  const item = new StatusNotifierItem(look, menu.status);
  const entries = [...menu.entries]; // the menu as the panel was told it
  const dbusMenu = new DBusMenu(entries, onClick);
  const started = await setUpOnBus(
    'session',
    async (bus) => {
      bus.export(ITEM_PATH, item);
      bus.export(MENU_PATH, dbusMenu);
      await bus.requestName(busName, dbus.NameFlag.DO_NOT_QUEUE);
      (await busDaemon(bus)).on('NameOwnerChanged', (name: string, _old: string, owner: string) => {
        if (name === WATCHER && owner) void register(bus, busName);
      });
      await register(bus, busName);
    },
    { timeoutMs: CONNECT_TIMEOUT_MS },
  );
  if ('failed' in started) return started;
  const { bus } = started; // a bus that goes away later takes the icon with it; the daemon carries on

  const tray: Tray = {
    update: (changed) => {
      for (const { index, entry } of changed) entries[index] = entry;
      dbusMenu.changed(changed.map(({ index }) => index));
    },
    setStatus: (status) => {
      const before = item.status;
      item.status = status;
      if (status.summary !== before.summary) item.NewToolTip();
      if (status.attention !== before.attention) {
        item.NewStatus(item.Status);
        item.NewAttentionIcon();
      }
    },
    stop: async () => {
      await bus.releaseName(busName).catch(() => undefined);
      bus.disconnect();
    },
  };
  return tray;
};
