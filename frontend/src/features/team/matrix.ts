// The permission matrix of the custom-role screens (SPEC §6): groups of rows, one row per
// resource, one column per action. A selection (what the matrix shows ticked) converts to the
// permission keys a role is saved with, in catalogue order, and back.
//
// The "all" column: on a resource with an `.all` key (order.order.all) ticking it ticks the
// whole row and gives that one key instead of the single actions; on a resource without one
// (product.sku) it ticks every action of the row, each giving its own key; the
// administration rows (user.*, store.role.*, …) have only that column, which gives the
// pattern key itself. Pure: no React here.
import type { ServerErrorOptions } from '@/shared/form/serverErrors';
import { covers } from '@/shared/perms';
import { P, PERMISSION_KEYS, type PermissionKey } from '@/shared/permissions.gen';

/** The matrix's columns, in order. */
export const ACTIONS = ['all', 'read', 'create', 'edit', 'delete', 'cancel', 'approve', 'reject'] as const;
export type Action = (typeof ACTIONS)[number];

export interface MatrixRow {
  /** The row's id and its name's key under `roles:rows`. */
  id: string;
  /** The catalogue key of each action the resource has; `all` only when the catalogue has it. */
  keys: Readonly<Partial<Record<Action, PermissionKey>>>;
  /** The row's columns, in column order: `all` always, then the actions of `keys`. */
  actions: readonly Action[];
}

export interface MatrixGroup {
  /** The group's id and its heading's key under `roles:groups`. */
  id: string;
  rows: readonly MatrixRow[];
}

function row(id: string, keys: Partial<Record<Action, PermissionKey>>): MatrixRow {
  return { id, keys, actions: ACTIONS.filter((a) => a === 'all' || keys[a] !== undefined) };
}

/** The matrix, group by group (SPEC §6). */
export const MATRIX: readonly MatrixGroup[] = [
  { id: 'product', rows: [row('products', { read: P.productSkuRead, create: P.productSkuCreate, edit: P.productSkuEdit })] },
  { id: 'contacts', rows: [row('customers', { read: P.storeCustomerRead, create: P.storeCustomerCreate, edit: P.storeCustomerEdit })] },
  {
    id: 'stock',
    rows: [
      row('goodsReceipt', {
        all: P.wmsGoodsReceiptAll,
        read: P.wmsGoodsReceiptRead,
        create: P.wmsGoodsReceiptCreate,
        edit: P.wmsGoodsReceiptEdit,
        delete: P.wmsGoodsReceiptDelete,
        approve: P.wmsGoodsReceiptApprove,
      }),
      // Goods adjust also opens the stock overview.
      row('goodsAdjust', { read: P.wmsGoodsAdjustRead, create: P.wmsGoodsAdjustCreate }),
    ],
  },
  {
    id: 'sales',
    rows: [row('orders', { all: P.orderOrderAll, read: P.orderOrderRead, create: P.orderOrderCreate, edit: P.orderOrderEdit, cancel: P.orderOrderCancel })],
  },
  {
    id: 'accountant',
    rows: [
      row('payments', {
        all: P.paymentPaymentAll,
        read: P.paymentPaymentRead,
        create: P.paymentPaymentCreate,
        edit: P.paymentPaymentEdit,
        delete: P.paymentPaymentDelete,
        approve: P.paymentPaymentApprove,
        reject: P.paymentPaymentReject,
      }),
    ],
  },
  {
    id: 'administration',
    rows: [
      row('team', { all: P.userAll }),
      row('roles', { all: P.storeRoleAll }),
      row('storeSettings', { all: P.storeAll }),
      row('paymentAccounts', { all: P.paymentStoreChannelAll }),
      row('logistics', { all: P.logisticStoreChannelAll }),
    ],
  },
];

/** Every row, in matrix order. */
export const ROWS: readonly MatrixRow[] = MATRIX.flatMap((g) => g.rows);

/** What the matrix shows ticked: the ticked columns of each row (rows with none left out),
 * in column order. `all` is ticked exactly when the role holds the row's `.all` key, or, on
 * a row without one, when every action of the row is ticked. */
export type Selection = Readonly<Record<string, readonly Action[]>>;

/** The keys a cell grants: its own key, or for an `all` without one every action's key. */
export function cellKeys(r: MatrixRow, action: Action): PermissionKey[] {
  const own = r.keys[action];
  if (own) return [own];
  if (action !== 'all') return [];
  return r.actions.flatMap((a) => (a === 'all' ? [] : [r.keys[a] as PermissionKey]));
}

/** The row's ticks made whole: a held `.all` ticks the row; on a row without an `.all` key
 * the `all` column is ticked when every action is. */
function normalise(r: MatrixRow, ticked: ReadonlySet<Action>): Action[] {
  const others = r.actions.filter((a) => a !== 'all');
  const all = r.keys.all ? ticked.has('all') : others.length > 0 && others.every((a) => ticked.has(a));
  if (r.keys.all && all) return [...r.actions];
  return r.actions.filter((a) => (a === 'all' ? all : ticked.has(a)));
}

function withRow(sel: Selection, r: MatrixRow, ticked: ReadonlySet<Action>): Selection {
  const next: Record<string, readonly Action[]> = { ...sel };
  const actions = normalise(r, ticked);
  if (actions.length > 0) next[r.id] = actions;
  else delete next[r.id];
  return next;
}

export function rowById(rowId: string): MatrixRow | undefined {
  return ROWS.find((r) => r.id === rowId);
}

export function isTicked(sel: Selection, rowId: string, action: Action): boolean {
  return (sel[rowId] ?? []).includes(action);
}

/** Ticks or unticks one cell. `all` ticks or unticks the whole row; unticking an action
 * while `all` is ticked unticks `all` and keeps the row's other actions. */
export function toggle(sel: Selection, rowId: string, action: Action, on: boolean): Selection {
  const r = rowById(rowId);
  if (!r || !r.actions.includes(action)) return sel;
  if (action === 'all') return withRow(sel, r, new Set(on ? r.actions : []));
  const ticked = new Set(sel[rowId] ?? []);
  if (on) {
    ticked.add(action);
  } else {
    ticked.delete(action);
    ticked.delete('all');
  }
  return withRow(sel, r, ticked);
}

/** Ticks (or unticks) every row of a group. `may` says which cells the member may tick (see
 * `grantable`); a row whose `all` they may not tick gets the actions they may. Unticking is
 * always allowed. */
export function toggleGroup(sel: Selection, groupId: string, on: boolean, may: (r: MatrixRow, a: Action) => boolean = () => true): Selection {
  const g = MATRIX.find((x) => x.id === groupId);
  if (!g) return sel;
  let next = sel;
  for (const r of g.rows) {
    if (!on || may(r, 'all')) {
      next = toggle(next, r.id, 'all', on);
    } else {
      for (const a of r.actions) if (a !== 'all' && may(r, a)) next = toggle(next, r.id, a, true);
    }
  }
  return next;
}

/** Whether every row of a group is wholly ticked (`all`), and whether any is ticked at all. */
export function groupState(sel: Selection, groupId: string): { all: boolean; some: boolean } {
  const g = MATRIX.find((x) => x.id === groupId);
  const rows = g?.rows ?? [];
  return { all: rows.length > 0 && rows.every((r) => isTicked(sel, r.id, 'all')), some: rows.some((r) => (sel[r.id] ?? []).length > 0) };
}

/** The permission keys of a selection, each once, in catalogue order. */
export function toKeys(sel: Selection): PermissionKey[] {
  const keys = new Set<PermissionKey>();
  for (const r of ROWS) {
    const ticked = sel[r.id] ?? [];
    if (r.keys.all && ticked.includes('all')) {
      keys.add(r.keys.all);
      continue;
    }
    for (const a of ticked) {
      const k = r.keys[a];
      if (k) keys.add(k);
    }
  }
  return PERMISSION_KEYS.filter((k) => keys.has(k));
}

function isCatalogueKey(k: string): k is PermissionKey {
  return (PERMISSION_KEYS as readonly string[]).includes(k);
}

/** The selection of a role's keys. Catalogue keys tick their own cell (`store.*` ticks the
 * store-settings row only; see `impliedCells` for what it covers besides). Keys outside the
 * catalogue, which only the built-in roles hold (`*`, `wms.*`, `product.sku.*`), tick every
 * cell they cover. Unknown keys that cover nothing are ignored. */
export function fromKeys(keys: readonly string[]): Selection {
  const patterns = keys.filter((k) => !isCatalogueKey(k));
  let sel: Selection = {};
  for (const r of ROWS) {
    const ticked = new Set<Action>();
    for (const a of r.actions) {
      const k = r.keys[a];
      if (k && (keys.includes(k) || patterns.some((g) => covers(g, k)))) ticked.add(a);
    }
    sel = withRow(sel, r, ticked);
  }
  return sel;
}

/** `rowId:action` of a cell. */
export function cellId(rowId: string, action: Action): string {
  return `${rowId}:${action}`;
}

/** Cells not ticked themselves but granted by another ticked key, the gateway's way
 * (`store.*` covers `store.customer.read` and `store.role.*`): shown ticked, not saved. */
export function impliedCells(sel: Selection): Set<string> {
  const keys = toKeys(sel);
  const out = new Set<string>();
  for (const r of ROWS) {
    for (const a of r.actions) {
      const k = r.keys[a];
      if (k && !isTicked(sel, r.id, a) && keys.some((g) => g !== k && covers(g, k))) out.add(cellId(r.id, a));
    }
    const others = r.actions.filter((a) => a !== 'all');
    if (
      !r.keys.all &&
      !isTicked(sel, r.id, 'all') &&
      others.length > 0 &&
      others.every((a) => isTicked(sel, r.id, a) || out.has(cellId(r.id, a)))
    ) {
      out.add(cellId(r.id, 'all'));
    }
  }
  return out;
}

/** Whether a member (their level and keys) may tick a cell: the server lets a non-owner grant
 * only what they hold themself (403 role_beyond_own_rights). */
export function grantable(r: MatrixRow, action: Action, level: string, granted: readonly string[]): boolean {
  if (level === 'owner') return true;
  const keys = cellKeys(r, action);
  return keys.length > 0 && keys.every((k) => granted.some((g) => covers(g, k)));
}

/** How many rights a role's keys give, as the matrix counts them: each action of a row
 * (the `all` column not counted where the row has actions), each administration row once;
 * rights covered by another key count too. The owner's `*` gives all of them. */
export function rightCount(keys: readonly string[]): number {
  const sel = fromKeys(keys);
  const implied = impliedCells(sel);
  let n = 0;
  for (const r of ROWS) {
    const counted = r.actions.length === 1 ? r.actions : r.actions.filter((a) => a !== 'all');
    for (const a of counted) if (isTicked(sel, r.id, a) || implied.has(cellId(r.id, a))) n++;
  }
  return n;
}

/** The most rights a role can have (every cell counted as `rightCount` counts). */
export const RIGHTS_TOTAL = rightCount(['*']);

/** Longest role name, in characters (the server's rule). */
export const ROLE_NAME_MAX = 50;

/** The names of the built-in roles, which a custom role may not take (case and spaces aside). */
export const BUILT_IN_NAMES = ['owner', 'admin', 'cashier'] as const;

/** A role's name: required, at most 50 characters, not a built-in role's. Message keys. */
export function checkRoleName(v: string): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'validation.required';
  if ([...s].length > ROLE_NAME_MAX) return 'validation.too_long';
  return (BUILT_IN_NAMES as readonly string[]).includes(s.toLowerCase()) ? 'roles:validation.role_name_reserved' : null;
}

/** How the role form shows a server's refusals: field codes from `roles` before `common`;
 * granting rights one does not hold goes under the matrix. */
export const ROLE_ERRORS: ServerErrorOptions = {
  ns: 'roles',
  only: ['name', 'permissions'],
  codes: { role_beyond_own_rights: { field: 'permissions', message: 'roles:errors.role_beyond_own_rights' } },
};

/** Refusals the role screens explain with their own message (`roles:errors.<code>`). */
export const ROLE_REFUSALS = [
  'role_not_found',
  'role_built_in',
  'role_in_use',
  'role_limit_reached',
  'role_beyond_own_rights',
  'team_own_rights',
  'team_role_level',
] as const;

/** The message key of a refusal the role screens explain, or null. */
export function roleRefusalKey(code: string | undefined): string | null {
  return code && (ROLE_REFUSALS as readonly string[]).includes(code) ? `roles:errors.${code}` : null;
}
