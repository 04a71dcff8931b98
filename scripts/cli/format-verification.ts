import type { ProvidersVerification } from "@/lib/services/providers/verify-providers";

/** A failure's message is cut here: the table is for a terminal; --json has it whole. */
const MESSAGE_CHARS = 100;

const usd = (value: number) => `$${Number(value.toFixed(6))}`;

function outcome(check: ProvidersVerification["checks"][number]): string {
  if (check.ok) return "ok";
  const message = check.message ?? "";
  const short = message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message;
  return short ? `${check.reason}: ${short}` : (check.reason ?? "failed");
}

/** `providers verify` output: `provider | ok/why | ms | usd`, one row per provider, then the total spent. */
export function formatVerification(verification: ProvidersVerification): string {
  const rows = [
    ["provider", "ok/why", "ms", "usd"],
    ...verification.checks.map((c) => [c.provider, outcome(c), String(c.ms), usd(c.usd)]),
    ["total", "", "", usd(verification.total_usd)],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows
    .map(([provider = "", why = "", ms = "", cost = ""]) =>
      [provider.padEnd(widths[0] ?? 0), why.padEnd(widths[1] ?? 0), ms.padStart(widths[2] ?? 0), cost].join(
        " | ",
      ),
    )
    .join("\n");
}
