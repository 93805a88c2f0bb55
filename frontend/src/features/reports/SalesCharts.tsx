// The dashboards' charts (recharts, decision 0031), in the dashboards' own chunks: sales over
// time, by channel, a figure beside the period before's and the best sellers. Each is drawn for the eye only (`aria-hidden`); the figures it
// shows are in the table the dashboard keeps beside it, which screen readers read.
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { formatBaht } from '@/shared/money';

export interface Point {
  label: string;
  net: number;
  orders: number;
}

export interface Slice {
  label: string;
  net: number;
}

export const COLORS = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2', '#faad14', '#2f54eb'];

const baht = (v: unknown) => formatBaht(typeof v === 'number' ? v : Number(v));

/** An axis' amount, short: 850, 2.5k, 12k, 1.2M. */
export function shortAmount(v: number): string {
  const a = Math.abs(v);
  const short = (n: number, unit: string) => `${n >= 10 ? Math.round(n) : Math.round(n * 10) / 10}${unit}`;
  if (a >= 1_000_000) return short(v / 1_000_000, 'M');
  if (a >= 1_000) return short(v / 1_000, 'k');
  return String(Math.round(v));
}

/** Net as bars and orders as a line, per point of the period. */
export function OverTime({ points, netLabel, ordersLabel }: { points: Point[]; netLabel: string; ordersLabel: string }) {
  return (
    <div aria-hidden="true" data-testid="chart-over-time" style={{ width: '100%', height: 280 }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis yAxisId="net" tickFormatter={shortAmount} width={48} />
          <YAxis yAxisId="orders" orientation="right" allowDecimals={false} width={32} />
          <Tooltip formatter={(v, name) => (name === netLabel ? baht(v) : String(v))} />
          <Bar yAxisId="net" dataKey="net" name={netLabel} fill={COLORS[0]} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line yAxisId="orders" dataKey="orders" name={ordersLabel} stroke={COLORS[2]} dot={false} strokeWidth={2} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Each channel's (or each kind's, in `colors`) share of the net. */
export function ByChannel({ slices, colors }: { slices: Slice[]; colors?: string[] }) {
  const shown = slices.map((s, i) => ({ ...s, color: colors?.[i] })).filter((s) => s.net > 0);
  return (
    <div aria-hidden="true" data-testid="chart-by-channel" style={{ width: '100%', height: 220 }}>
      <ResponsiveContainer width="100%" height="100%">
        <PieChart>
          <Pie data={shown} dataKey="net" nameKey="label" innerRadius="55%" outerRadius="85%" isAnimationActive={false}>
            {shown.map((s, i) => (
              <Cell key={s.label} fill={s.color ?? COLORS[i % COLORS.length]} />
            ))}
          </Pie>
          <Tooltip formatter={(v) => baht(v)} />
        </PieChart>
      </ResponsiveContainer>
    </div>
  );
}

export interface Compared {
  label: string;
  current: number;
  previous: number | null;
}

/** One figure of the period as a line, and the period before's beside it, dashed. */
export function ComparedOverTime({ points, money, currentLabel, previousLabel }: { points: Compared[]; money: boolean; currentLabel: string; previousLabel: string }) {
  const show = (v: unknown) => (money ? baht(v) : String(v));
  return (
    <div aria-hidden="true" data-testid="chart-compared" style={{ width: '100%', height: 300 }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis tickFormatter={money ? shortAmount : undefined} allowDecimals={money} width={48} />
          <Tooltip formatter={(v) => show(v)} />
          <Legend />
          <Line dataKey="current" name={currentLabel} stroke={COLORS[0]} strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line dataKey="previous" name={previousLabel} stroke="#8c8c8c" strokeDasharray="5 4" dot={false} isAnimationActive={false} connectNulls={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Figures per point as bars, one bar per key of `series` (stacked when `stacked`): each
 * channel's net, or the orders placed beside those cancelled. */
export function BarsOverTime({ rows, series, stacked = false, money = true, testId = 'chart-stacked' }: { rows: Record<string, number | string>[]; series: { key: string; label: string; color?: string }[]; stacked?: boolean; money?: boolean; testId?: string }) {
  return (
    <div aria-hidden="true" data-testid={testId} style={{ width: '100%', height: 300 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis tickFormatter={money ? shortAmount : undefined} allowDecimals={money} width={48} />
          <Tooltip formatter={(v) => (money ? baht(v) : String(v))} />
          <Legend />
          {series.map((s, i) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId={stacked ? 'one' : undefined} fill={s.color ?? COLORS[i % COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Amounts as horizontal bars, largest first (the page's best sellers). */
export function Ranked({ items }: { items: Slice[] }) {
  return (
    <div aria-hidden="true" data-testid="chart-ranked" style={{ width: '100%', height: Math.max(120, items.length * 32 + 24) }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={items} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tickFormatter={shortAmount} />
          <YAxis type="category" dataKey="label" width={140} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => baht(v)} />
          <Bar dataKey="net" fill={COLORS[0]} radius={[0, 3, 3, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
