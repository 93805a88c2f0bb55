// Validates rendered Kubernetes manifests (multi-document YAML on standard input, e.g. from
// `kubectl kustomize k8s/overlays/production`) against the Kubernetes schemas, offline:
// every object is built with the kubernetes-models class of its apiVersion and kind and
// validated. Any failure, or an object of a kind it does not know, exits 1.
//
//   kubectl kustomize k8s/base | node scripts/validate-k8s.mjs [LABEL]
//
// LABEL (e.g. the folder rendered) prefixes the report. scripts/check-k8s.sh runs this for
// the base and every overlay.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// kubernetes-models and js-yaml are dev dependencies of the admin app (cd frontend && npm ci).
const requireApp = createRequire(path.join(root, 'frontend', 'package.json'));
let yaml;
try {
  yaml = requireApp('js-yaml');
  requireApp.resolve('kubernetes-models');
} catch (e) {
  console.error(`validate-k8s: ${e.message.split('\n')[0]}; install the app's dependencies first (cd frontend && npm ci)`);
  process.exit(1);
}

const label = process.argv[2] || 'stdin';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

let docs;
try {
  docs = yaml.loadAll(Buffer.concat(chunks).toString('utf8')).filter((d) => d !== null && d !== undefined);
} catch (e) {
  console.error(`${label}: not valid YAML: ${e.message}`);
  process.exit(1);
}
if (docs.length === 0) {
  console.error(`${label}: no objects to validate`);
  process.exit(1);
}

// "apps/v1" lives in kubernetes-models/apps/v1, the core group's "v1" in kubernetes-models/v1.
function modelClass(apiVersion, kind) {
  if (!/^([a-z0-9][a-z0-9.-]*\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) || !/^[A-Za-z0-9]+$/.test(kind)) return null;
  let mod;
  try {
    mod = requireApp(`kubernetes-models/${apiVersion}`);
  } catch {
    return null;
  }
  const cls = mod[kind];
  return typeof cls === 'function' && cls.apiVersion === apiVersion && cls.kind === kind ? cls : null;
}

function describe(err) {
  const where = err.instancePath || '/';
  const params = err.params || {};
  const extra = params.allowedValues ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `${where} ${err.message || err.keyword}${extra}`;
}

let failures = 0;
const kinds = new Map();
docs.forEach((doc, i) => {
  const name = doc && doc.metadata && doc.metadata.name;
  const id = `${(doc && doc.kind) || '?'}/${name || `#${i + 1}`}`;
  const problems = [];
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    problems.push('is not an object');
  } else if (typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') {
    problems.push('has no apiVersion and kind');
  } else {
    const Model = modelClass(doc.apiVersion, doc.kind);
    if (!Model) {
      problems.push(`unknown kind ${doc.kind} in ${doc.apiVersion} (no kubernetes-models class for it)`);
    } else {
      if (typeof name !== 'string' || name === '') problems.push('/metadata must have a name');
      try {
        new Model(doc).validate();
      } catch (e) {
        if (Array.isArray(e.errors) && e.errors.length) problems.push(...e.errors.map(describe));
        else problems.push(e.message);
      }
    }
  }
  if (problems.length) {
    failures++;
    for (const p of problems) console.error(`${label}: ${id}: ${p}`);
  } else {
    kinds.set(doc.kind, (kinds.get(doc.kind) || 0) + 1);
  }
});

if (failures) {
  console.error(`${label}: ${failures} of ${docs.length} objects failed validation`);
  process.exit(1);
}
const summary = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
console.log(`${label}: ${docs.length} objects valid (${summary})`);
