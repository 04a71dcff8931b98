import type { ReactNode } from "react";
import { Chart } from "@/components/dashboard/charts/chart";

/** A provider's latency over the calls that went out to it; null where none did. */
export interface ProviderLatency {
  name: string;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** Height of one provider's row (its two bars), and of the value axis and legend below the rows. */
const ROW_PX = 44;
const AXES_PX = 56;

/**
 * Median (p50) and slow-call (p95) latency per provider as horizontal bars, a row per provider with its
 * name beside it (however many there are, at any width), or `empty` when there is none.
 */
export function ProviderLatencyChart({
  label,
  providers,
  empty,
}: {
  /** Names the chart for assistive technology. */
  label: string;
  providers: readonly ProviderLatency[];
  empty: ReactNode;
}) {
  if (providers.length === 0) return empty;
  return (
    <Chart
      kind="bar"
      horizontal
      height={providers.length * ROW_PX + AXES_PX}
      label={label}
      data={providers.map((p) => ({ provider: p.name, p50: p.p50_ms, p95: p.p95_ms }))}
      category="provider"
      format="ms"
      series={[
        { key: "p50", label: "p50", color: 1 },
        { key: "p95", label: "p95", color: 5 },
      ]}
    />
  );
}
