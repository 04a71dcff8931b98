import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatDuration, formatUsd } from "@/lib/dashboard/format";
import { outcomeOf } from "./outcome";

export interface WaterfallSpan {
  provider: string;
  outcome: string;
  start_offset_ms: number;
  duration_ms: number;
  status?: number | null;
  error?: string | null;
  cost_usd?: number;
}

/**
 * Provider spans on a shared time axis: each bar starts at its offset and is as long as the call took,
 * coloured by outcome. Providers still running (the playground, live) show a pulsing bar up to `elapsedMs`.
 */
export function Waterfall({
  spans,
  running = [],
  elapsedMs = 0,
}: {
  spans: readonly WaterfallSpan[];
  running?: readonly string[];
  elapsedMs?: number;
}) {
  const end = Math.max(elapsedMs, ...spans.map((s) => s.start_offset_ms + s.duration_ms), 1);
  const percent = (ms: number) => `${(ms / end) * 100}%`;
  return (
    <ol className="space-y-1.5" aria-label="Provider calls over time">
      {spans.map((span, index) => {
        const look = outcomeOf(span.outcome);
        return (
          <li
            // A provider can appear twice (a fetch waterfall retrying); its position tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: spans have no id of their own
            key={`${span.provider}-${index}`}
            className="grid grid-cols-[7rem_1fr] items-center gap-3 text-sm sm:grid-cols-[9rem_1fr_15rem]"
            data-testid="span-row"
          >
            <span className="truncate font-mono text-xs" title={span.provider}>
              {span.provider === "*" ? "cache" : span.provider}
            </span>
            <div className="relative h-5 rounded bg-muted/60">
              <div
                className={cn("absolute inset-y-0 min-w-1 rounded", look.bar)}
                style={{ left: percent(span.start_offset_ms), width: percent(span.duration_ms) }}
              />
            </div>
            <span className="col-span-2 flex flex-wrap items-center gap-1.5 pl-[7.75rem] text-xs text-muted-foreground sm:col-span-1 sm:pl-0">
              <Badge tone={look.tone}>{look.text}</Badge>
              <span className="tabular-nums">{formatDuration(span.duration_ms)}</span>
              {span.status ? <span>HTTP {span.status}</span> : null}
              {span.cost_usd ? <span>{formatUsd(span.cost_usd)}</span> : null}
            </span>
            {span.error ? (
              <p className="col-span-2 pl-[7.75rem] text-xs break-words text-destructive sm:col-span-3 sm:pl-[9.75rem]">
                {span.error}
              </p>
            ) : null}
          </li>
        );
      })}
      {running.map((provider) => (
        <li
          key={`running-${provider}`}
          className="grid grid-cols-[7rem_1fr] items-center gap-3 text-sm sm:grid-cols-[9rem_1fr_15rem]"
        >
          <span className="truncate font-mono text-xs">{provider}</span>
          <div className="relative h-5 rounded bg-muted/60">
            <div
              className="absolute inset-y-0 left-0 animate-pulse rounded bg-primary/40"
              style={{ width: percent(elapsedMs) }}
            />
          </div>
          <span className="col-span-2 pl-[7.75rem] text-xs text-muted-foreground sm:col-span-1 sm:pl-0">
            running…
          </span>
        </li>
      ))}
      <li
        aria-hidden
        className="grid grid-cols-[7rem_1fr] gap-3 text-xs text-muted-foreground sm:grid-cols-[9rem_1fr_15rem]"
      >
        <span />
        {/* The time axis: from the call's start to the last step's end (or now, while it runs). */}
        <span className="flex justify-between tabular-nums">
          <span>call start</span>
          <span>+{formatDuration(end)}</span>
        </span>
      </li>
    </ol>
  );
}
