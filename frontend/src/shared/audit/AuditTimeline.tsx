// The store's audit trail as a timeline: who did what, what changed, when.
import type { ReactNode } from 'react';
import { Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '@/shared/i18n/i18n';

/** One entry as the API answers it. */
export interface AuditEntry {
  id: number;
  action: string;
  actorName: string;
  createdAt: string;
  detail: object;
}

type T = (k: string, o?: Record<string, unknown>) => string;

/** A value as the sentence shows it: an empty one as a dash, yes and no in words. */
function shown(v: unknown, t: T): string {
  if (v === '' || v === null || v === undefined) return '–';
  if (typeof v === 'boolean') return t(v ? 'common:audit.yes' : 'common:audit.no');
  return String(v);
}

/** One entry as a sentence: what was done, and what changed from what to what. */
export function auditLine(a: AuditEntry, t: T): string {
  const detail = (a.detail ?? {}) as Record<string, unknown>;
  const changes = Object.entries(detail)
    .filter(([, v]) => Array.isArray(v) && v.length === 2 && typeof v[0] !== 'object')
    .map(([k, v]) => {
      const [from, to] = (v as unknown[]).map((x) => shown(x, t));
      return t('common:audit.change', { field: t(`common:audit.fields.${k}`, { defaultValue: k }), from, to });
    });
  const action = t(`common:audit.actions.${a.action}`, { defaultValue: a.action });
  return changes.length > 0 ? `${action}: ${changes.join(', ')}` : action;
}

/** The entries in the order given (the store's trail newest first); `withActor` names who
 * acted on each; `describe` says an entry in the screen's own words (an order's timeline). */
export function AuditTimeline<E extends AuditEntry>({
  entries,
  withActor = false,
  testId,
  describe,
}: {
  entries: E[];
  withActor?: boolean;
  testId?: string;
  describe?: (entry: E) => ReactNode;
}) {
  const { t, i18n } = useTranslation('common');
  if (entries.length === 0) return <Typography.Text type="secondary">{t('common:audit.empty')}</Typography.Text>;
  return (
    <Timeline
      data-testid={testId}
      items={entries.map((a) => ({
        key: a.id,
        content: (
          <>
            <div>
              {withActor ? <Typography.Text strong>{a.actorName || t('common:audit.system')} · </Typography.Text> : null}
              {describe ? describe(a) : auditLine(a, t)}
            </div>
            <Typography.Text type="secondary">{formatDateTime(a.createdAt, i18n.language)}</Typography.Text>
          </>
        ),
      }))}
    />
  );
}
