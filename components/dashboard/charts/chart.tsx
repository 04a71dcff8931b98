"use client";

import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartSeries } from "@/lib/dashboard/chart-series";
import { chartMax, dayTicks, niceTicks } from "@/lib/dashboard/chart-ticks";
import {
  formatCompact,
  formatCount,
  formatDay,
  formatDuration,
  formatPercent,
  formatUsd,
  formatUsdTick,
} from "@/lib/dashboard/format";

type ValueFormat = "count" | "usd" | "ms" | "percent";
type Row = Record<string, string | number | null>;

interface ChartProps {
  kind: "bar" | "area";
  /** Names the chart for assistive technology; the data is also given as a hidden table. */
  label: string;
  data: Row[];
  /** The key of each row's category (x axis, or y axis when horizontal). */
  category: string;
  /** "day" formats ISO dates as "Nov 22" and labels one a week, ending on the latest. */
  categoryFormat?: "day" | "text";
  series: ChartSeries[];
  format: ValueFormat;
  /** Bars run left to right with categories down the side (long names, many rows). */
  horizontal?: boolean;
  height?: number;
  reference?: { value: number; label: string };
}

const FORMATTERS: Record<ValueFormat, (value: number) => string> = {
  count: formatCount,
  usd: formatUsd,
  ms: formatDuration,
  percent: formatPercent,
};
/** Axis ticks `step` apart (round values, see niceTicks): short, with the same precision on every tick. */
const TICKS: Record<ValueFormat, (value: number, step: number) => string> = {
  count: formatCompact,
  usd: formatUsdTick,
  ms: (ms) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`),
  percent: formatPercent,
};

const colour = (n: ChartSeries["color"]) => `var(--chart-${n})`;
const axis = { stroke: "var(--muted-foreground)", fontSize: 12, tickLine: false, axisLine: false } as const;

/** A bar or area chart in the theme's colours, sized to its container, with a screen-reader table. */
export function Chart({
  kind,
  label,
  data,
  category,
  categoryFormat = "text",
  series,
  format,
  horizontal = false,
  height = 240,
  reference,
}: ChartProps) {
  const value = FORMATTERS[format];
  const categoryText = (raw: unknown) => (categoryFormat === "day" ? formatDay(String(raw)) : String(raw));
  const ticks = niceTicks(Math.max(chartMax(data, series), reference?.value ?? 0), {
    integer: format === "count",
  });
  const values = {
    ...axis,
    ticks,
    domain: [0, ticks.at(-1) ?? 1],
    interval: 0,
    tickFormatter: (tick: number) => TICKS[format](tick, ticks[1] ?? 1),
  } as const;
  const valueAxis = <YAxis {...values} width={64} />;
  const categoryAxis =
    categoryFormat === "day" ? (
      <XAxis
        {...axis}
        dataKey={category}
        tickFormatter={categoryText}
        ticks={dayTicks(data.map((row) => String(row[category])))}
        interval={0}
      />
    ) : (
      <XAxis {...axis} dataKey={category} tickFormatter={categoryText} minTickGap={16} />
    );
  const common = {
    data,
    responsive: true,
    style: { width: "100%", height },
    // Room on the right for the last tick label, centred on the last category or value.
    margin: { top: 8, right: 24, bottom: 0, left: 0 },
    accessibilityLayer: true,
  };
  const decorations = (
    <>
      <CartesianGrid stroke="var(--chart-grid)" vertical={horizontal} horizontal={!horizontal} />
      <Tooltip
        formatter={(v) => value(Number(v))}
        labelFormatter={categoryText}
        cursor={{ fill: "var(--muted)", opacity: 0.5 }}
        contentStyle={{
          background: "var(--card)",
          border: "1px solid var(--border)",
          borderRadius: 6,
          color: "var(--foreground)",
          fontSize: 12,
        }}
      />
      {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
      {reference ? (
        <ReferenceLine
          y={horizontal ? undefined : reference.value}
          x={horizontal ? reference.value : undefined}
          stroke="var(--destructive)"
          strokeDasharray="4 4"
          label={{
            value: reference.label,
            fill: "var(--destructive)",
            fontSize: 11,
            position: "insideTopRight",
          }}
        />
      ) : null}
    </>
  );

  return (
    <figure aria-label={label} className="relative w-full">
      {kind === "area" ? (
        <AreaChart {...common}>
          {decorations}
          {categoryAxis}
          {valueAxis}
          {series.map((s) => (
            <Area
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId={s.stack}
              type="monotone"
              stroke={colour(s.color)}
              fill={colour(s.color)}
              fillOpacity={0.2}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      ) : (
        <BarChart {...common} layout={horizontal ? "vertical" : "horizontal"}>
          {decorations}
          {horizontal ? (
            <>
              <XAxis {...values} type="number" />
              {/* Every category keeps its label: a row each, never thinned out like ticks. */}
              <YAxis
                {...axis}
                type="category"
                dataKey={category}
                width={150}
                interval={0}
                tickFormatter={categoryText}
              />
            </>
          ) : (
            <>
              {categoryAxis}
              {valueAxis}
            </>
          )}
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId={s.stack}
              fill={colour(s.color)}
              radius={s.stack ? 0 : 3}
              maxBarSize={32}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      )}
      {/* A table ignores the 1px width of sr-only, so the wrapper carries it. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{category}</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={String(row[category])}>
                <th scope="row">{categoryText(row[category])}</th>
                {series.map((s) => (
                  <td key={s.key}>{row[s.key] === null ? "—" : value(Number(row[s.key]))}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
