// End-to-end: the specs of e2e/specs/ against a freshly started backoffice in Debian's Chromium
// through playwright-core (see fixtures.mjs). Each test runs in its own browser context, signed
// in as its spec asks; a failing test is reported with its screenshot and the rest still run.
// Screenshots of every test go to e2e/screenshots/ (git-ignored).
//
//   node e2e/run.mjs                  every spec
//   node e2e/run.mjs customers stock  only these specs (e2e/specs/<name>.spec.mjs)
//   E2E_GREP=paged node e2e/run.mjs reports   only its tests whose name holds "paged"
//   E2E_CPU_SLOWDOWN=4 node e2e/run.mjs       the page's scripts four times slower
//
// A spec exports `tests`: [{ name, as?: 'owner' | 'reader' | null, viewport?, run }], run in
// order; with `as` (default owner) the test starts signed in on the demo store's
// getting-start, with null on a blank page. `run` gets { page, base, api, url, another,
// sandboxes }, `another()` opening a second, blank browser context (another person), and
// `sandboxes` the marketplace sandboxes' addresses (`sandboxes.shopee`, `sandboxes.tiktok`)
// and the Magento shop's (`sandboxes.magento`, its credentials `sandboxes.magentoIntegration`).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { root, startFixture, STORE_ID } from './fixtures.mjs';

const TEST_TIMEOUT_MS = 120_000;
const shots = path.join(root, 'e2e', 'screenshots');
fs.rmSync(shots, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });

const specDir = path.join(root, 'e2e', 'specs');
const only = process.argv.slice(2);
// E2E_GREP=words: only the tests whose name holds them.
const grep = process.env.E2E_GREP ?? '';
const specs = fs
  .readdirSync(specDir)
  .filter((f) => f.endsWith('.spec.mjs'))
  .map((f) => f.replace(/\.spec\.mjs$/, ''))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();

let passed = 0;
let failed = 0;
const failures = [];
let shot = 0;

function report(ok, name, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    failures.push(`${name}: ${detail}`);
    console.log(`FAIL ${name}: ${detail}`);
  }
}

const firstLine = (e) => String(e?.message ?? e).split('\n')[0];

async function runTest(fx, spec, test) {
  const name = `${spec} › ${test.name}`;
  const file = path.join(shots, `${String(++shot).padStart(2, '0')}-${spec}-${test.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
  let opened;
  let timer;
  const extra = [];
  try {
    const body = async () => {
      opened = await fx.open(test.as === undefined ? 'owner' : test.as, test.viewport);
      await opened.start();
      const { page } = opened;
      // Another person at the same time: a blank browser context of their own.
      const another = async () => {
        const other = await fx.open(null);
        extra.push(other);
        return other.page;
      };
      await test.run({ page, base: fx.base, api: fx.api, url: (p) => `${fx.base}/${STORE_ID}/${p}`, another, sandboxes: fx.sandboxes });
    };
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${TEST_TIMEOUT_MS / 1000} s`)), TEST_TIMEOUT_MS);
    });
    await Promise.race([body(), timeout]);
    await opened.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    report(true, name);
  } catch (e) {
    const saved = opened
      ? await opened.page.screenshot({ path: file, fullPage: true }).then(
          () => true,
          () => false,
        )
      : false;
    // Where the page was: the address tells a screen that never came from a wrong one.
    const at = opened ? ` at ${opened.page.url()}` : '';
    report(false, name, `${firstLine(e)}${at}${saved ? ` (screenshot: ${path.relative(process.cwd(), file)})` : ''}`);
  } finally {
    clearTimeout(timer);
    // Closing the context also ends whatever a timed-out test was still waiting for.
    if (opened) await opened.context.close().catch(() => undefined);
    for (const o of extra) await o.context.close().catch(() => undefined);
  }
}

let fx;
try {
  if (specs.length === 0) throw new Error(`no spec matches ${only.join(', ')}`);
  fx = await startFixture();
  for (const spec of specs) {
    let tests;
    try {
      ({ tests } = await import(pathToFileURL(path.join(specDir, `${spec}.spec.mjs`)).href));
      if (!Array.isArray(tests)) throw new Error('exports no `tests` list');
    } catch (e) {
      report(false, spec, `cannot load the spec: ${firstLine(e)}`);
      continue;
    }
    for (const test of tests) if (!grep || test.name.includes(grep)) await runTest(fx, spec, test);
  }
} catch (e) {
  console.error(e);
  report(false, 'setup', firstLine(e));
} finally {
  if (fx) await fx.close();
}

if (failures.length) {
  console.log('\nfailed:');
  for (const f of failures) console.log(`  ${f}`);
}
console.log(`screenshots: ${path.relative(process.cwd(), shots)}/`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
