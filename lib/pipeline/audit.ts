import type { Tx } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";
import type { Actor } from "./context";

/** An OAuth client acting on its own grant (exchanging a code, refreshing, revoking), not a person. */
export interface OAuthClientActor {
  kind: "oauth_client";
  clientId: string;
}

/** Searchmux itself, in a background job (a webhook paused after its receiver kept failing). */
interface SystemActor {
  kind: "system";
}

export interface AuditEntry {
  tenantId: string;
  actor: Actor | OAuthClientActor | SystemActor;
  /** `<area>.<verb>`, e.g. `token.create`. */
  action: string;
  targetType: string;
  targetId?: string;
  /** Never secrets: names, scopes, last 4 at most. */
  details?: Record<string, unknown>;
}

/** Writes the audit row inside the caller's transaction, so the change and its record commit together. */
export async function writeAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    tenantId: entry.tenantId,
    actorUserId: entry.actor.kind === "user" ? entry.actor.userId : null,
    actorTokenId: entry.actor.kind === "token" ? entry.actor.tokenId : null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: {
      actor: entry.actor.kind,
      ...(entry.actor.kind === "oauth_client" ? { client: entry.actor.clientId } : {}),
      ...entry.details,
    },
  });
}
