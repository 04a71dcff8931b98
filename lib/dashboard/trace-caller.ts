/**
 * Who made a traced call, in words: "by <name>", "by a former member" (no longer readable), or "not
 * attributed" (the operator's calls, and calls traced before traces named their member).
 */
export function callerOf(trace: { user_id: string | null; user_name: string | null }): string {
  if (trace.user_id === null) return "not attributed";
  return `by ${trace.user_name ?? "a former member"}`;
}
