// What every dashboard shares: the period in the address (`?period=&date=`), the head that
// chooses it, the tabs between the dashboards, the "compared with" and "updated" line, the
// figure cards and the blocks that show a chart or its table.
import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Card, Col, DatePicker, Row, Segmented, Skeleton, Tabs, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { useOrderChannelsQuery } from '@/features/orders/api';
import { eraLocale } from '@/shared/form/EraDatePicker';
import { formatDateTime, thailandToday } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { change, dayParam, periodLabel, periodOf, pickerOf, PERIODS, type Period } from './dashboard';

/** The dashboards, in the order of their tabs: each one's path under the store. */
export const DASHBOARD_TABS = [
  { key: 'overview', path: 'dashboard' },
  { key: 'statistic', path: 'dashboard/statistic' },
  { key: 'saleChannel', path: 'dashboard/sale-channel' },
  { key: 'saleProduct', path: 'dashboard/sale-product' },
  { key: 'saleOrder', path: 'dashboard/sale-order' },
  { key: 'customer', path: 'dashboard/customer' },
  { key: 'customerArea', path: 'dashboard/customer-area' },
  { key: 'serviceFee', path: 'dashboard/service-fee' },
] as const;

/** The period the address asks for (a month and today unless it says otherwise), and a way
 * to choose another, kept in the address so a dashboard can be shared and reloaded. */
export function usePeriodParams() {
  const [params, setParams] = useSearchParams();
  const period = periodOf(params.get('period'));
  const date = dayParam(params.get('date')) ?? thailandToday().format('YYYY-MM-DD');
  const go = (p: Period, d: string, extra: Record<string, string> = {}) => setParams({ period: p, date: d, ...extra }, { replace: true });
  return { period, date, go, params };
}

/** What a query tells the frame. */
interface Loading {
  isError: boolean;
  isLoading: boolean;
  refetch: () => unknown;
}

/** The queries of a dashboard as one: failed when one failed, loading while one loads,
 * asked again together. */
export function together(...queries: Loading[]): Loading {
  return {
    isError: queries.some((q) => q.isError),
    isLoading: queries.some((q) => q.isLoading),
    refetch: () => queries.forEach((q) => void q.refetch()),
  };
}

/** What the frame says of a loaded answer: its period, the one before, when it changed. */
export function dated(d?: { dateFrom: string; previousFrom: string; updatedAt: string }) {
  return { from: d?.dateFrom, previousFrom: d?.previousFrom, updatedAt: d?.updatedAt };
}

interface FrameProps extends Loading {
  /** Which tab is this dashboard's. */
  tab: (typeof DASHBOARD_TABS)[number]['key'];
  title: string;
  testId: string;
  /** The period shown and how to choose another (`usePeriodParams`, or a page's own `go`
   * that keeps its other parameters). */
  at: { period: Period; date: string; go: (p: Period, d: string) => void };
  /** The period's and the period before's first days, once loaded. */
  from?: string;
  previousFrom?: string;
  /** RFC 3339, empty when the figures never changed. */
  updatedAt?: string;
  /** What the line says when they never did (default: no sales recorded yet). */
  never?: string;
  /** Beside the period: what may be done with it (an export). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The period a page shows, and a way to choose another: a day, a month, a quarter or a
 * year, and which one (in the Buddhist era in Thai). */
export function PeriodPicker({ at }: { at: { period: Period; date: string; go: (p: Period, d: string) => void } }) {
  const { t, i18n } = useTranslation('reports');
  const lng = i18n.language;
  return (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
      <Segmented
        value={at.period}
        onChange={(v) => at.go(v as Period, at.date)}
        options={PERIODS.map((x) => ({ value: x, label: t(`periods.${x}`) }))}
        data-testid="period"
      />
      <DatePicker
        picker={pickerOf(at.period)}
        value={dayjs(at.date)}
        allowClear={false}
        locale={eraLocale(lng)}
        format={(d: Dayjs) => periodLabel(at.period, d.format('YYYY-MM-DD'), lng)}
        onChange={(d: Dayjs | null) => d && at.go(at.period, d.format('YYYY-MM-DD'))}
        aria-label={t('pickPeriod')}
        data-testid="period-date"
      />
    </div>
  );
}

/** A dashboard page: its tabs, its head with the period, the line that names the period and
 * when its figures last changed, and the blocks (`children`) once loaded. */
export function DashboardFrame({ at, ...p }: FrameProps) {
  const { t, i18n } = useTranslation('reports');
  const lng = i18n.language;
  const navigate = useNavigate();
  const { storeId } = useParams();
  const { search } = useLocation();
  return (
    <div data-testid={p.testId}>
      <Tabs
        activeKey={p.tab}
        onChange={(key) => {
          const tab = DASHBOARD_TABS.find((x) => x.key === key);
          // The period goes along: the owner compares the same month across dashboards.
          const keep = new URLSearchParams(search);
          const query = new URLSearchParams({ period: keep.get('period') ?? at.period, date: keep.get('date') ?? at.date });
          if (tab) navigate(`/${storeId}/${tab.path}?${query.toString()}`);
        }}
        items={DASHBOARD_TABS.map((x) => ({ key: x.key, label: <span data-testid={`tab-${x.key}`}>{t(`tabs.${x.key}`)}</span> }))}
        style={{ marginBottom: 0 }}
      />
      <div className="bo-page-head">
        <h1>{p.title}</h1>
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
          <PeriodPicker at={at} />
          {p.actions}
        </div>
      </div>
      {p.isError ? (
        <Alert type="error" showIcon title={t('failed')} action={<a onClick={() => void p.refetch()}>{t('retry')}</a>} />
      ) : p.isLoading || !p.from ? (
        <Skeleton active />
      ) : (
        <>
          <Typography.Paragraph type="secondary" data-testid="period-label">
            {t('periodOf', { period: periodLabel(at.period, p.from, lng), previous: periodLabel(at.period, p.previousFrom ?? '', lng) })} ·{' '}
            <span data-testid="updated-at">{p.updatedAt ? t('updatedAt', { at: formatDateTime(p.updatedAt, lng) }) : (p.never ?? t('neverUpdated'))}</span>
          </Typography.Paragraph>
          {p.children}
        </>
      )}
    </div>
  );
}

/** A channel's name in the app's language (its code for a channel no longer listed). */
export function useChannelLabel() {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  const { data: channels } = useOrderChannelsQuery();
  return useCallback(
    (code: string) => {
      const c = channels?.data.find((x) => x.code === code);
      return c ? (lng === 'th' ? c.nameTh : c.nameEn) : code;
    },
    [channels, lng],
  );
}

/** A figure's value as shown: baht with two decimals, or a count. */
export const shownValue = (money: boolean, v: number) => (money ? formatBaht(v) : v.toLocaleString('en-US'));

/** How a figure moved against the period before, coloured by whether that is good news. */
export function Moved({ now, before, lowerIsBetter = false, testId }: { now: number; before: number; lowerIsBetter?: boolean; testId?: string }) {
  const { t } = useTranslation('reports');
  const moved = change(now, before);
  if (moved === null) return <span data-testid={testId}>{t('compare.none')}</span>;
  const good = lowerIsBetter ? moved <= 0 : moved >= 0;
  return (
    <span style={{ color: good ? '#389e0d' : '#cf1322' }} data-testid={testId}>
      {moved >= 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {Math.abs(moved).toLocaleString('en-US')}%
    </span>
  );
}

/** One figure of the period, beside the period before and how it moved. */
export function FigureCard({ testId, label, now, before, money, lowerIsBetter = false, suffix = '' }: { testId: string; label: string; now: number; before: number; money: boolean; lowerIsBetter?: boolean; suffix?: string }) {
  const { t } = useTranslation('reports');
  const moved = change(now, before);
  const shown = (v: number) => `${shownValue(money, v)}${suffix}`;
  return (
    <Card size="small" data-testid={testId}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div style={{ fontSize: 24, fontWeight: 600 }} data-testid={`${testId}-value`}>
        {shown(now)}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {moved === null ? t('compare.none') : <Moved now={now} before={before} lowerIsBetter={lowerIsBetter} testId={`${testId}-change`} />}{' '}
        {t('compare.before', { value: shown(before) })}
      </Typography.Text>
    </Card>
  );
}

/** A row of figure cards. */
export function FigureRow({ children }: { children: ReactNode[] }) {
  return (
    <Row gutter={[12, 12]}>
      {children.map((c, i) => (
        <Col key={i} xs={12} md={8} xl={4} flex="auto">
          {c}
        </Col>
      ))}
    </Row>
  );
}

/** A block that shows a chart or, for those who would rather read, its table; `beside` keeps
 * the table in sight next to the chart on a wide screen. Under a chart alone, its table is
 * kept for screen readers. */
export function ChartOrTable({ title, testId, chart, table, beside = false, extra }: { title: string; testId: string; chart: ReactNode; table: ReactNode; beside?: boolean; extra?: ReactNode }) {
  const { t } = useTranslation('reports');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        <Segmented
          size="small"
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          options={[
            { value: 'chart', label: t('view.chart') },
            { value: 'table', label: t('view.table') },
          ]}
          data-testid={`${testId}-view`}
        />
      }
    >
      {/* What the block shows (a figure, a kind of place) above it, scrolling sideways
          within the card on a narrow screen. */}
      {extra && <div style={{ overflowX: 'auto', maxWidth: '100%', marginBottom: 12 }}>{extra}</div>}
      {view === 'chart' && beside ? (
        <Row gutter={16} align="middle">
          <Col xs={24} md={10}>
            {chart}
          </Col>
          <Col xs={24} md={14}>
            {table}
          </Col>
        </Row>
      ) : view === 'chart' ? (
        <>
          {chart}
          <div className="bo-sr-only">{table}</div>
        </>
      ) : (
        table
      )}
    </Card>
  );
}
