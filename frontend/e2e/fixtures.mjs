// What every end-to-end spec shares: one freshly started backoffice (SQLite, demo store) with
// a read-only member, one Chromium, the sign-in helper, and an API client to set up data a
// test needs without going through other screens. Files the tests upload are in fixtures/.
//
//   BACKOFFICE_BIN  the binary (default ../target/debug/backoffice)
//   CHROMIUM        the browser (default /usr/bin/chromium)
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = process.env.BACKOFFICE_BIN || path.join(process.env.CARGO_TARGET_DIR || path.join(root, '..', 'target'), 'debug', 'backoffice');
// The marketplaces' sandboxes, built beside the binary (`cargo build -p bo-sandbox`).
const sandboxBin = process.env.CHANNELS_SANDBOX_BIN || path.join(path.dirname(bin), 'channels-sandbox');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';

/** The demo store every test works in. */
export const STORE_ID = 1;

/** The text of a PDF by poppler's pdftotext; null when it is not installed. */
export function pdfText(bytes) {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftotext', ['-enc', 'UTF-8', '-', '-']);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.on('error', () => undefined); // it may end before reading it all
    child.on('error', (e) => (e.code === 'ENOENT' ? resolve(null) : reject(e)));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`pdftotext exited with ${code}: ${err.trim()}`))));
    child.stdin.end(bytes);
  });
}

/** Who signs in: the demo owner, a member whose role may read customers but not create
 * them, and one who may read products but not edit them (added at start through
 * `backoffice admin add-member`). */
export const USERS = {
  owner: { email: 'owner@example.com', password: 'demo1234' },
  reader: { email: 'reader@example.com', password: 'reader-pass-1' },
  viewer: { email: 'viewer@example.com', password: 'viewer-pass-1' },
};

/** A file of e2e/fixtures/. */
export const file = (name) => path.join(root, 'e2e', 'fixtures', name);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitReady(base, server) {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`backoffice exited with ${server.exitCode}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('backoffice never became ready');
}

/** Starts the server, adds the reader, launches Chromium. `open` gives a test its own
 * context; `close` undoes all of it, also after a failed start. */
/** Waits until nothing of antd moves (a modal zooming in, a dropdown sliding down, a toast).
 * A button's spinner fading out is left aside: its leave transition sometimes never reports
 * its end when the button renders again meanwhile, and it moves nothing on the page. */
export const still = (page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')].every(
      (el) =>
        !/(^|\s)ant-[\w-]+-(appear|enter|leave)(\s|$|-)/.test(el.getAttribute('class') ?? '') ||
        el.classList.contains('ant-btn-loading-icon') ||
        el.getClientRects().length === 0,
    ),
  );

/** An antd input by its test id, whether the id sits on the input or on its wrapper. */
export const input = (scope, testId) => scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

/** Picks the option naming `option` of an antd select (after searching for `typed`, if
 * given), and waits until the select shows it. */
export async function pick(page, testId, option, typed) {
  await page.getByTestId(testId).click();
  if (typed !== undefined) await page.getByTestId(testId).locator('input').fill(typed);
  const choice = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first();
  await choice.waitFor();
  await still(page);
  await choice.click();
  await page.getByTestId(testId).getByText(option).first().waitFor();
}

/** Confirms the open question dialog, after checking what it says. */
export async function confirm(page, says) {
  if (says) await page.getByTestId('dialog-message').getByText(says).waitFor();
  await still(page);
  await page.getByTestId('dialog-ok').click();
  await page.getByTestId('dialog-ok').waitFor({ state: 'detached' });
}

/** Creates a goods receipt through the API, once the warehouse has learnt of its SKUs (it
 * follows the catalog's events: until then it answers sku_not_found). */
export async function receiptByApi(api, body) {
  for (let i = 0; ; i++) {
    try {
      return await api.post('/wms/goods-receipts', body);
    } catch (e) {
      if (i >= 50 || !String(e.message).includes('sku_not_found')) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Adds stock of a SKU to the main warehouse through the API, once the ledger knows the SKU
 * (it learns of a new one from the catalog's event); answers the warehouse. */
export async function stockUp(api, skuId, quantity, reason = 'e2e') {
  const { data: warehouses } = await api.get('/wms/warehouses');
  const warehouse = warehouses.find((w) => w.is_default) ?? warehouses[0];
  for (let i = 0; ; i++) {
    try {
      await api.post('/wms/goods-adjust', { warehouse_id: warehouse.id, sku_id: skuId, quantity, reason });
      return warehouse;
    } catch (e) {
      if (i >= 50 || !String(e.message).includes('sku_not_found')) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Creates an order through the API, once the catalog knows its SKUs. */
export async function orderByApi(api, body) {
  for (let i = 0; ; i++) {
    try {
      return await api.post('/orders', body);
    } catch (e) {
      if (i >= 50 || !/sku_not_found|sku_unknown/.test(String(e.message))) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startFixture() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-e2e-'));
  const port = await freePort();
  const env = {
    ...process.env,
    BO_DATA_DIR: data,
    BO_HTTP__ADDR: `127.0.0.1:${port}`,
    BO_HTTP__STATIC_DIR: path.join(root, 'dist'),
    BO_DEMO__ENABLED: 'true',
    BO_DEMO__EMAIL: USERS.owner.email,
    BO_DEMO__PASSWORD: USERS.owner.password,
    RUST_LOG: 'warn',
  };
  const base = `http://127.0.0.1:${port}`;
  // The marketplaces' sandboxes on ports of their own; the back-office takes the settings
  // they print.
  const ports = { SHOPEE_PORT: await freePort(), LAZADA_PORT: await freePort(), TIKTOK_PORT: await freePort(), MAGENTO_PORT: await freePort() };
  const sandbox = spawn(sandboxBin, [], { env: { ...process.env, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])), BO_SERVICES__MARKETPLACES__PUBLIC_URL: base }, stdio: ['ignore', 'pipe', 'inherit'] });
  const printed = await new Promise((resolve, reject) => {
    let out = '';
    sandbox.stdout.on('data', (d) => {
      out += d;
      if (out.includes('PUBLIC_URL=')) resolve(out);
    });
    sandbox.on('exit', (code) => reject(new Error(`channels-sandbox exited with ${code}`)));
  });
  for (const m of printed.matchAll(/export (BO_SERVICES__MARKETPLACES__\w+)=(\S+)/g)) env[m[1]] = m[2];
  // The Magento shop is no setting of the back-office: its URL and integration are what the
  // owner types in the Magento channel's form.
  const magento = Object.fromEntries([...printed.matchAll(/^\s+MAGENTO_(\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  const server = spawn(bin, ['--target', 'all'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let browser;
  const close = async () => {
    if (browser) await browser.close().catch(() => undefined);
    server.kill('SIGTERM');
    sandbox.kill('SIGTERM');
    fs.rmSync(data, { recursive: true, force: true });
  };
  try {
    await waitReady(base, server);
    execFileSync(
      bin,
      ['admin', 'add-member', '--store-id', String(STORE_ID), '--email', USERS.reader.email, '--permission', 'cashier', '--role', 'customer-reader', '--role-permissions', 'store.customer.read'],
      { env: { ...env, BO_MEMBER_PASSWORD: USERS.reader.password }, stdio: 'ignore' },
    );
    execFileSync(
      bin,
      ['admin', 'add-member', '--store-id', String(STORE_ID), '--email', USERS.viewer.email, '--permission', 'cashier', '--role', 'catalog-viewer', '--role-permissions', 'product.sku.read'],
      { env: { ...env, BO_MEMBER_PASSWORD: USERS.viewer.password }, stdio: 'ignore' },
    );
    browser = await chromium.launch({
      executablePath: browserPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (e) {
    await close();
    throw e;
  }

  // Each member signs in through the screens once; later contexts start from that stored
  // session, since the gateway allows few sign-ins a minute from one address.
  const sessions = new Map();
  const session = (who) => {
    if (!sessions.has(who)) {
      sessions.set(
        who,
        (async () => {
          const { context, page } = await newPage(browser);
          try {
            await login(page, base, who);
            return await context.storageState();
          } finally {
            await context.close();
          }
        })(),
      );
    }
    return sessions.get(who);
  };

  /** A fresh context and page for one test, signed in as `who` (blank when null); `start`
   * brings a signed-in page to the demo store's getting-start, where such tests begin. */
  const open = async (who, viewport) => {
    const { context, page } = await newPage(browser, viewport, who ? await session(who) : undefined);
    const start = async () => {
      if (!who) return;
      await page.goto(`${base}/${STORE_ID}/getting-start`);
      await page.getByTestId('getting-start').waitFor();
    };
    return { context, page, start };
  };

  // The sandboxes' own control routes (placing and pushing orders, reading stock).
  // `magento` is the Magento shop's base URL, `magentoIntegration` its store view and OAuth
  // 1.0a credentials (`storeCode`, `consumerKey`, `consumerSecret`, `accessToken`,
  // `accessTokenSecret`).
  const sandboxes = {
    shopee: env.BO_SERVICES__MARKETPLACES__SHOPEE__API_URL,
    tiktok: env.BO_SERVICES__MARKETPLACES__TIKTOK_SHOP__API_URL,
    magento: magento.URL,
    magentoIntegration: {
      storeCode: magento.STORE_CODE,
      consumerKey: magento.CONSUMER_KEY,
      consumerSecret: magento.CONSUMER_SECRET,
      accessToken: magento.ACCESS_TOKEN,
      accessTokenSecret: magento.ACCESS_TOKEN_SECRET,
    },
  };
  return { base, api: apiClient(base, USERS.owner), open, close, sandboxes };
}

/** A fresh context and page: nothing stored from other tests unless `storageState` says so. */
export async function newPage(browser, viewport = { width: 1280, height: 860 }, storageState = undefined) {
  const context = await browser.newContext({ viewport, locale: 'th-TH', storageState });
  const page = await context.newPage();
  // A loaded two-core machine can be slow: E2E_TIMEOUT_MS, 30 s unless set.
  page.setDefaultTimeout(Number(process.env.E2E_TIMEOUT_MS) || 30000);
  // E2E_CPU_SLOWDOWN=4 runs the page's scripts four times slower (Chromium's CPU throttling),
  // as a busy machine would: races between the screen and a quick hand show up here.
  const slowdown = Number(process.env.E2E_CPU_SLOWDOWN ?? 1);
  if (slowdown > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  const latency = Number(process.env.E2E_LATENCY_MS ?? 0);
  if (latency > 0) await (await context.newCDPSession(page)).send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
  return { context, page };
}

/** Signs in on the sign-in screen and waits for the store picker. */
export async function signIn(page, base, who) {
  const user = USERS[who];
  await page.goto(`${base}/login`);
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/choose-store', { waitUntil: 'commit' });
}

/** Signs in and picks the demo store, as a member does: ends on getting-start. */
export async function login(page, base, who) {
  await signIn(page, base, who);
  await page.getByTestId(`store-${STORE_ID}`).getByRole('button').click();
  await page.waitForURL(`**/${STORE_ID}/getting-start`, { waitUntil: 'commit' });
  await page.getByTestId('getting-start').waitFor();
}

/** The gateway's API as `who`, with the store's token, for setting up a test's data. */
function apiClient(base, who) {
  let token;
  const call = async (method, url, body, bearer = token) => {
    const headers = bearer ? { authorization: `Bearer ${bearer}` } : {};
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const r = await fetch(`${base}/api${url}`, { method, headers, body: payload });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  const ready = async () => {
    if (token) return;
    const user = await call('POST', '/auth/login', who, null);
    token = (await call('POST', '/stores/auth/token', { id: STORE_ID }, user.token)).token;
  };
  const api = {
    get: async (url) => (await ready(), call('GET', url)),
    post: async (url, body) => (await ready(), call('POST', url, body)),
    patch: async (url, body) => (await ready(), call('PATCH', url, body)),
    put: async (url, body) => (await ready(), call('PUT', url, body)),
    del: async (url) => (await ready(), call('DELETE', url)),
    /** A product without variants (one SKU with the product's code) in the first category. */
    async product(code, name, extra = {}) {
      const categories = await api.get('/products/categories');
      return api.post('/products', { code, name, short_description: name, category_id: categories.data[0].id, price: '100', cost: '50', tags: ['e2e'], skus: [{}], ...extra });
    },
    async customer(name, tel) {
      return api.post(`/stores/${STORE_ID}/customers`, {
        name,
        tel,
        address: '1 ถนนพระราม 1',
        sub_district: 'ปทุมวัน',
        district: 'ปทุมวัน',
        state_province: 'กรุงเทพมหานคร',
        postcode: '10330',
      });
    },
    async photo(productId, name) {
      const form = new FormData();
      form.append('files', new Blob([fs.readFileSync(file(name))], { type: 'image/png' }), name);
      return api.post(`/products/${productId}/photos`, form);
    },
    /** Waits until the stock ledger knows a new SKU (it learns of it from the catalog's
     * event). The probe takes a unit away from nothing, which the ledger refuses without a
     * trace: `sku_not_found` while the SKU is unknown, another refusal once it is known. */
    async ledgerKnows(skuId) {
      const warehouses = await api.get('/wms/warehouses');
      const probe = { warehouse_id: warehouses.data[0].id, sku_id: skuId, quantity: -1, reason: 'probe' };
      for (let i = 0; i < 200; i++) {
        let refused;
        try {
          await api.post('/wms/goods-adjust', probe);
        } catch (e) {
          refused = String(e.message);
        }
        if (refused === undefined) throw new Error('the probe took a unit away');
        if (!refused.includes('sku_not_found')) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the stock ledger never learnt of SKU ${skuId}`);
    },
    /** Adds stock to the default warehouse and waits until the overview, which follows the
     * ledger's events, shows it. */
    async stock(skuId, code, quantity) {
      const warehouses = await api.get('/wms/warehouses');
      // The ledger learns of a new SKU from the catalog's event: until then it answers 404.
      const adjust = { warehouse_id: warehouses.data[0].id, sku_id: skuId, quantity, reason: 'e2e' };
      for (let i = 0; ; i++) {
        try {
          await api.post('/wms/goods-adjust', adjust);
          break;
        } catch (e) {
          if (i >= 50 || !String(e.message).includes('sku_not_found')) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      for (let i = 0; i < 50; i++) {
        const rows = await api.get(`/products/sku-inventories?search=${encodeURIComponent(code)}`);
        if (rows.data.some((r) => r.sku_code === code && r.inventory.quantity === quantity)) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`the overview never showed ${quantity} of ${code}`);
    },
  };
  return api;
}
