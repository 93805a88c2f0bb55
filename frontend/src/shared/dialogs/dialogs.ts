// Dialogs of each kind in SPEC §8, with SPEC §9's confirm colours: green by default, red
// for warning, dark navy for question. `showDialog` resolves true on confirm.
export type DialogKind = 'warning' | 'error' | 'success' | 'question' | 'permission' | 'void' | 'info';

export interface DialogOptions {
  kind: DialogKind;
  /** i18n key of the title. */
  title: string;
  /** i18n key of the message. */
  message: string;
  values?: Record<string, string | number>;
  /** i18n key of the confirm button (default common:dialog.ok). */
  confirm?: string;
  /** Show a cancel button (warning and question have one by default). */
  cancel?: boolean;
}

export interface OpenDialog extends DialogOptions {
  id: number;
  resolve: (ok: boolean) => void;
}

export const CONFIRM_COLOURS: Record<DialogKind, string> = {
  warning: '#d4380d',
  question: '#0b2545',
  error: '#389e0d',
  success: '#389e0d',
  permission: '#389e0d',
  void: '#389e0d',
  info: '#389e0d',
};

type Listener = (dialogs: OpenDialog[]) => void;
let open: OpenDialog[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit() {
  for (const l of listeners) l(open);
}

export function subscribeDialogs(l: Listener): () => void {
  listeners.add(l);
  l(open);
  return () => listeners.delete(l);
}

export function showDialog(opts: DialogOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    open = [
      ...open,
      {
        ...opts,
        id,
        resolve: (ok) => {
          open = open.filter((d) => d.id !== id);
          emit();
          resolve(ok);
        },
      },
    ];
    emit();
  });
}

/** Shows a dialog unless one with the same title is already open (several failed calls at once). */
export function showDialogOnce(opts: DialogOptions): Promise<boolean> | null {
  if (open.some((d) => d.title === opts.title)) return null;
  return showDialog(opts);
}

export function hasCancel(d: DialogOptions): boolean {
  return d.cancel ?? (d.kind === 'warning' || d.kind === 'question');
}

export function closeAllDialogs(): void {
  for (const d of [...open]) d.resolve(false);
}
