/**
 * Keyset pagination over rows ordered newest first by (created_at, id): the cursor is the last row's
 * position, opaque to callers, so a page never repeats or skips rows written while someone pages.
 */
import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { ServiceError } from "./errors";

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso = "", id = ""] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id))
    throw new ServiceError("invalid_input", "invalid cursor");
  return { createdAt, id };
}

/** Rows after `cursor` in newest-first order (invalid_input for a cursor no page gave out). */
export function olderThan(columns: { createdAt: PgColumn; id: PgColumn }, cursor: string): SQL | undefined {
  const after = decodeCursor(cursor);
  return or(
    lt(columns.createdAt, after.createdAt),
    and(eq(columns.createdAt, after.createdAt), lt(columns.id, after.id)),
  );
}
