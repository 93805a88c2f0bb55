import { useState } from 'react';
import { Button, Drawer, Dropdown } from 'antd';
import { DownOutlined, ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { ExportHistory } from '@/features/orders/api';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { useExportSummaryMutation, type SummaryKind } from './api';
import type { Period } from './dashboard';

/** What an export request's refusal means to the member: nothing to export is a dialog;
 * a refusal the app shows itself (rights, limits) is left to it; anything else says it
 * failed. */
export function explainRefusal(e: unknown, failed: string) {
  const body = apiError(e);
  if (body?.code === 'no_data_for_export') {
    void showDialog({
      kind: 'warning',
      title: 'reports:export.noDataTitle',
      message: 'reports:export.noData',
      cancel: false,
    });
    return;
  }
  if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(body?.message ?? failed);
}

/** The export history beside a report, opened once an export was asked for. */
export function HistoryDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('orders');
  return (
    <Drawer open={open} onClose={onClose} title={t('orders:exports.history')} size={720} destroyOnHidden>
      {open ? <ExportHistory /> : null}
    </Drawer>
  );
}

/** "Export to Excel" for a dashboard's period (SPEC §7 `POST …/export-excel[/{x}]`): one
 * table, or a choice of them; the spreadsheet is built in the background and the export
 * history opens to follow it. */
export function ExportButton({ kind, tables, at }: { kind: SummaryKind; tables?: string[]; at: { period: Period; date: string } }) {
  const { t, i18n } = useTranslation(['reports', 'orders']);
  const [ask, { isLoading }] = useExportSummaryMutation();
  const [history, setHistory] = useState(false);
  const go = async (table?: string) => {
    try {
      await ask({
        kind,
        table,
        body: {
          period: at.period,
          date: at.date,
          lang: i18n.language === 'en' ? 'en' : 'th',
        },
      }).unwrap();
      notifySuccess(t('reports:export.asked'));
      setHistory(true);
    } catch (e) {
      explainRefusal(e, t('reports:export.failed'));
    }
  };
  const testId = `export-${kind}`;
  return (
    <>
      {tables && tables.length > 1 ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: tables.map((x) => ({
              key: x,
              label: <span data-testid={`${testId}-${x}`}>{t(`orders:exports.tables.${x}`)}</span>,
            })),
            onClick: ({ key }) => void go(key),
          }}
        >
          <Button icon={<ExportOutlined />} loading={isLoading} data-testid={testId} aria-label={t('reports:export.choose')}>
            {t('reports:export.button')} <DownOutlined />
          </Button>
        </Dropdown>
      ) : (
        <Button icon={<ExportOutlined />} loading={isLoading} onClick={() => void go(tables?.[0])} data-testid={testId}>
          {t('reports:export.button')}
        </Button>
      )}
      <HistoryDrawer open={history} onClose={() => setHistory(false)} />
    </>
  );
}
