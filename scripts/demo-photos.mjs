// Renders the demo store's product photos: every SVG in services/backoffice/demo/photos/src/ becomes a
// JPEG of the same name in services/backoffice/demo/photos/ (the SVG's own width × height, quality 82),
// drawn by a headless Chromium through playwright-core.
//
// The JPEGs are committed, so building or running the project needs no browser: run this
// only after changing or adding an SVG. Labels and size charts are set in the Thai TLWG
// fonts (Debian's fonts-thai-tlwg: Garuda, Waree).
//
//   node scripts/demo-photos.mjs                 every SVG
//   node scripts/demo-photos.mjs jeans sneakers  only these
//
//   CHROMIUM  the browser (default /usr/bin/chromium)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// playwright-core is one of the admin app's dev dependencies (cd frontend && npm ci).
const { chromium } = createRequire(path.join(root, 'frontend', 'package.json'))('playwright-core');

const srcDir = path.join(root, 'services', 'backoffice', 'demo', 'photos', 'src');
const outDir = path.join(root, 'services', 'backoffice', 'demo', 'photos');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const QUALITY = 82;
const BUDGET = 60 * 1024;

const wanted = process.argv.slice(2).map((a) => path.basename(a).replace(/\.(svg|jpg)$/, ''));
const names = fs
  .readdirSync(srcDir)
  .filter((f) => f.endsWith('.svg'))
  .map((f) => f.slice(0, -4))
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();
const unknown = wanted.filter((n) => !names.includes(n));
if (unknown.length) {
  console.error(`no such SVG in ${path.relative(root, srcDir)}: ${unknown.join(', ')}`);
  process.exit(1);
}

// The size of an SVG: its width and height attributes, else its viewBox.
function sizeOf(svg) {
  const tag = svg.match(/<svg\b[^>]*>/)?.[0] ?? '';
  const attr = (name) => tag.match(new RegExp(`\\s${name}="([\\d.]+)`))?.[1];
  const box = tag.match(/viewBox="([^"]+)"/)?.[1]?.trim().split(/[\s,]+/).map(Number);
  const width = Math.round(Number(attr('width') ?? box?.[2] ?? 800));
  const height = Math.round(Number(attr('height') ?? box?.[3] ?? 800));
  return { width, height };
}

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--font-render-hinting=none'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 800 }, locale: 'th-TH' });
  for (const name of names) {
    const svg = fs.readFileSync(path.join(srcDir, `${name}.svg`), 'utf8').replace(/<\?xml[^>]*\?>\s*/, '');
    const { width, height } = sizeOf(svg);
    await page.setViewportSize({ width, height });
    await page.setContent(
      `<!doctype html><html lang="th"><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;background:#fff;overflow:hidden}svg{display:block}</style></head><body>${svg}</body></html>`,
    );
    await page.evaluate(() => document.fonts.ready);
    const out = path.join(outDir, `${name}.jpg`);
    await page.screenshot({ path: out, type: 'jpeg', quality: QUALITY, clip: { x: 0, y: 0, width, height } });
    const size = fs.statSync(out).size;
    const over = size > BUDGET;
    failed ||= over;
    console.log(`${path.relative(root, out)}  ${width}×${height}  ${(size / 1024).toFixed(1)} KB${over ? '  (over 60 KB)' : ''}`);
  }
} finally {
  await browser.close();
}
if (failed) {
  console.error('some photos are over 60 KB: simplify their SVG (fewer gradients, less fine texture)');
  process.exit(1);
}
