import { timingSafeEqual } from "node:crypto";

/** Whether `presented` is the `configured` secret; constant time, and false when either is missing. */
export function secretEquals(presented: string | null | undefined, configured: string | undefined): boolean {
  if (!configured || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(configured);
  return a.length === b.length && timingSafeEqual(a, b);
}
