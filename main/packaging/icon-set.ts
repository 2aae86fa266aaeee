/**
 * Every PNG that `npm run icons` renders, and from which SVG. Pure data: the generator, the
 * packaging config test and the shell's tray code agree on these names.
 */

export interface IconJob {
  /** SVG source, relative to the project root. */
  source: string;
  /** PNG written, relative to the project root. */
  out: string;
  /** Width and height in pixels. */
  size: number;
  /** A macOS template image: black and alpha only (macOS tints it for the menu bar). */
  template?: boolean;
}

/** Linux icon theme sizes (electron-builder installs each into hicolor/NxN/apps). */
export const LINUX_ICON_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;

/**
 * Below this size the full mark's thin strokes blur into mush, so the small sizes are drawn from
 * the tray drawing, which is the same mark with bolder shapes made for 16–32 px.
 */
const SMALL_ICON_MAX = 32;

/**
 * Tray icon names the shell loads from assets/tray/ (each with an @2x twin). Electron marks an
 * image as a macOS template by its name only when it ends in `Template` (`*Template.png`,
 * `*Template@2x.png`), hence trayAttentionTemplate rather than a suffix after the word.
 */
export const TRAY_ICONS = ['tray', 'tray-attention', 'trayTemplate', 'trayAttentionTemplate'] as const;
export type TrayIconName = (typeof TRAY_ICONS)[number];

function trayJobs(name: TrayIconName): IconJob[] {
  const template = name.endsWith('Template');
  // macOS menu bar icons are 16 pt; the coloured ones for Windows and Linux trays are 32 px.
  const size = template ? 16 : 32;
  const source = `assets/tray/${name}.svg`;
  return [
    { source, out: `assets/tray/${name}.png`, size, template },
    { source, out: `assets/tray/${name}@2x.png`, size: size * 2, template },
  ];
}

export const ICON_JOBS: readonly IconJob[] = [
  // electron-builder turns this into the .icns (macOS) and .ico (Windows); it needs ≥ 512 px.
  { source: 'assets/icon.svg', out: 'assets/icon.png', size: 1024 },
  ...LINUX_ICON_SIZES.map((size) => ({
    source: size <= SMALL_ICON_MAX ? 'assets/tray/tray.svg' : 'assets/icon.svg',
    out: `assets/icons/${size}x${size}.png`,
    size,
  })),
  ...TRAY_ICONS.flatMap(trayJobs),
];
