// Every key exists in both languages, and no screen carries a user-visible string of its own.
import fs from 'fs';
import path from 'path';

const dir = __dirname;

// Plural forms (`_one`, `_other`, …) count as their base key: English needs two forms where
// Thai, which has no plural, needs one.
const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix.replace(PLURAL, '')];
  return [...new Set(Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k)))];
}

const namespaces = fs.readdirSync(path.join(dir, 'th')).filter((f) => f.endsWith('.json'));

describe('locales', () => {
  it('have the same namespaces in Thai and English', () => {
    expect(fs.readdirSync(path.join(dir, 'en')).filter((f) => f.endsWith('.json')).sort()).toEqual([...namespaces].sort());
  });

  it.each(namespaces)('%s has every key in both languages', (ns) => {
    const th = keys(JSON.parse(fs.readFileSync(path.join(dir, 'th', ns), 'utf8')));
    const en = keys(JSON.parse(fs.readFileSync(path.join(dir, 'en', ns), 'utf8')));
    expect(th.filter((k) => !en.includes(k))).toEqual([]);
    expect(en.filter((k) => !th.includes(k))).toEqual([]);
  });

  it('no component renders a literal sentence', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.tsx') && !p.endsWith('.test.tsx')) files.push(p);
      }
    };
    walk(path.join(dir, '..'));
    const offenders: string[] = [];
    for (const f of files) {
      const src = fs.readFileSync(f, 'utf8');
      // JSX text that ends at a closing tag and contains a letter (Latin or Thai).
      for (const m of src.matchAll(/>([^<>{}]*[A-Za-z\u0E00-\u0E7F][^<>{}]*)<\//g)) {
        offenders.push(`${path.relative(dir, f)}: ${m[1].trim()}`);
      }
      for (const m of src.matchAll(/(?:title|placeholder|label|message|description|subTitle)=["']([^"']*[A-Za-z\u0E00-\u0E7F][^"']*)["']/g)) {
        offenders.push(`${path.relative(dir, f)}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
