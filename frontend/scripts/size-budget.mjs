// The initial JavaScript (what the browser loads before any route's own chunk) must stay
// under 300 KB gzipped. Reads the built index.html, gzips each script it loads, prints the
// figure, and fails over budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET = 300 * 1024;
const dist = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]+src=["']?([^"' >]+)/g)].map((m) => m[1]);
if (scripts.length === 0) {
  console.error('no scripts found in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const src of scripts) {
  const file = path.join(dist, src.replace(/^\//, ''));
  const gz = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  total += gz;
  console.log(`  ${src}: ${(gz / 1024).toFixed(1)} KB gzipped`);
}
const lazy = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js') && !scripts.some((s) => s.endsWith(f)));
console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB); ${lazy.length} lazy chunks`);
if (total > BUDGET) {
  console.error('over the size budget: load more of the app lazily');
  process.exit(1);
}
