/**
 * `npm run icons`: renders the SVG sources in assets/ to the PNGs the app and its packages use
 * (icon-set.ts lists them), in headless Chromium through playwright-core. The PNGs are committed,
 * so packaging never needs a browser; rerun this after editing an SVG.
 *
 *   node build/main/packaging/render-icons.js [--only SUBSTRING]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, defaultChromiumPath } from './chromium-launch.js';
import { ICON_JOBS, type IconJob } from './icon-set.js';
import { alphaStats, decodePng, readPngHeader } from './png.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** An <img> of exactly size × size CSS pixels on a transparent page, at device scale 1. */
async function renderSvg(page: Page, svg: Buffer, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: Math.max(size, 64), height: Math.max(size, 64) });
  const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  await page.setContent(
    `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent}` +
      `img{display:block;width:${size}px;height:${size}px}</style></head>` +
      `<body><img id="icon" alt="" src="${src}"></body></html>`,
  );
  const ok = await page.$eval('#icon', async (img) => {
    // The root tsconfig has no DOM types: describe the <img> members used here.
    const image = img as unknown as { decode(): Promise<void>; complete: boolean; naturalWidth: number };
    await image.decode().catch(() => undefined);
    return image.complete && image.naturalWidth > 0;
  });
  if (!ok) throw new Error('Chromium could not load the SVG');
  return page.locator('#icon').screenshot({ omitBackground: true, type: 'png', animations: 'disabled' });
}

/** Refuses to write an icon that is the wrong size, empty, or (template) not black-and-alpha. */
function check(job: IconJob, png: Buffer): void {
  const { width, height } = readPngHeader(png);
  if (width !== job.size || height !== job.size) throw new Error(`${job.out}: rendered ${width}x${height}, wanted ${job.size}x${job.size}`);
  const stats = alphaStats(decodePng(png));
  if (stats.visible === 0) throw new Error(`${job.out}: rendered an empty image`);
  if (stats.visible === stats.total) throw new Error(`${job.out}: no transparent pixel (the background was not omitted)`);
  if (job.template && stats.nonBlack > 0) throw new Error(`${job.out}: ${stats.nonBlack} pixels are not black, but a template image must be`);
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { only: { type: 'string' } }, strict: true });
  const jobs = ICON_JOBS.filter((job) => !values.only || job.out.includes(values.only));
  const browser = await chromium.launch({
    executablePath: defaultChromiumPath(),
    headless: true,
    // Same colours on every machine: no monitor profile conversion.
    args: [...CHROMIUM_FLAGS, '--force-color-profile=srgb'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const job of jobs) {
      const png = await renderSvg(page, readFileSync(resolve(PROJECT_ROOT, job.source)), job.size);
      check(job, png);
      const out = join(PROJECT_ROOT, job.out);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, png);
      process.stdout.write(`${job.out}  ${job.size}x${job.size}  from ${job.source}\n`);
    }
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`render-icons: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
