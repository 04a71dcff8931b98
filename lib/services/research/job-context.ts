/**
 * The context a research job runs in, on whichever instance claimed it: the starter's rights (actor,
 * scopes, surface) over this instance's platform, with the traces of its sub-calls noted as they are
 * recorded, so the job's own trace can list them and its cost can be counted.
 */

import type { TraceRecord, TraceSink } from "@/lib/pipeline/capabilities";
import type { Actor, Platform, Scope, TenantContext } from "@/lib/pipeline/context";
import type { JobRow } from "./job-lease";

function jobActor(row: JobRow): Actor {
  if (row.tokenId) {
    return { kind: "token", tokenId: row.tokenId, tokenName: row.tokenName ?? "", userId: row.userId };
  }
  return row.userId ? { kind: "user", userId: row.userId } : { kind: "operator" };
}

/** The job's context, and `ctx.traces` passing each sub-call's trace to `onSubCall` on its way to the sink. */
export function jobContext(
  platform: Platform,
  row: JobRow,
  onSubCall: (trace: TraceRecord) => void,
): { ctx: TenantContext; base: TenantContext } {
  const base: TenantContext = {
    ...platform,
    actor: jobActor(row),
    tenantId: row.tenantId,
    scopes: row.scopes as Scope[],
    surface: row.surface,
  };
  const sink = platform.traces;
  const traces: TraceSink = {
    record: (trace) => {
      sink.record(trace);
      onSubCall(trace);
    },
    flush: () => sink.flush(),
    settled: () => sink.settled(),
    pending: () => sink.pending(),
  };
  return { ctx: { ...base, traces }, base };
}
