// What tray/main.ts asks of the icon, whichever draws it (docs/desktop.md#two-ways-of-drawing-it): on Linux the tray's
// own StatusNotifierItem (tray/sni.ts), elsewhere systray2's tray binary (tray/traybin.ts).

/** One entry of the menu. The menu is a fixed list of entries: a refresh changes them in place, shown or hidden. */
export interface TrayEntry {
  /** A separator line: no label, cannot be chosen. */
  separator: boolean;
  label: string;
  /** Shown on hover where menus show item tooltips (macOS, Windows). */
  tooltip: string;
  enabled: boolean;
  visible: boolean;
  /** A check item's state (true: checked, drawn with a check mark); null for a plain item. */
  checked: boolean | null;
}

/** What the icon says besides its menu. */
export interface TrayStatus {
  /** The tooltip's line under the tray's name (what waits, a quiet period); empty for none. */
  summary: string;
  /** Something waits for the person (an approval): the icon asks for attention. */
  attention: boolean;
}

export interface TrayLook {
  /** The tray's name: its title in the panel and its tooltip's heading. */
  name: string;
  /** The icon, a PNG. */
  icon: Buffer;
}

export interface Tray {
  /** The entries at these places (indexes into the menu) changed. */
  update(changed: Array<{ index: number; entry: TrayEntry }>): void;
  /** The status changed. */
  setStatus(status: TrayStatus): void;
  /** Takes the icon away. */
  stop(): Promise<void>;
}

/** Puts the icon up with its menu; `onClick` gets the index of the entry the person chose. Says why when it cannot. */
export type StartTray = (
  look: TrayLook,
  menu: { entries: TrayEntry[]; status: TrayStatus },
  onClick: (index: number) => void,
) => Promise<Tray | { failed: string }>;
