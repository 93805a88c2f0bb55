// The dashboard's charts (recharts, decision 0031), in the dashboard's own chunk: sales over
// time and sales by channel. Each is drawn for the eye only (`aria-hidden`); the figures it
// shows are in the table the dashboard keeps beside it, which screen readers read.
import { Bar, CartesianGrid, Cell, ComposedChart, Line, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

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

/** Each channel's share of the net. */
export function ByChannel({ slices }: { slices: Slice[] }) {
  const shown = slices.filter((s) => s.net > 0);
  return (
    <div aria-hidden="true" data-testid="chart-by-channel" style={{ width: '100%', height: 220 }}>
      <ResponsiveContainer width="100%" height="100%">
        <PieChart>
          <Pie data={shown} dataKey="net" nameKey="label" innerRadius="55%" outerRadius="85%" isAnimationActive={false}>
            {shown.map((s, i) => (
              <Cell key={s.label} fill={COLORS[i % COLORS.length]} />
            ))}
          </Pie>
          <Tooltip formatter={(v) => baht(v)} />
        </PieChart>
      </ResponsiveContainer>
    </div>
  );
}
