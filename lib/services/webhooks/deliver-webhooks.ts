/**
 * Sends the webhook deliveries that are due (the `deliver-webhooks` background job: every 5 seconds on a
 * long-running server, every minute from Vercel Cron): a bounded batch claimed under a lease
 * (delivery-lease.ts), sent at once in parallel, each outcome recorded. Any instance may run it at any time;
 * the lease keeps two from sending one delivery at once, and a dead sender's deliveries are claimed again
 * once its lease lapses.
 */
import { randomUUID } from "node:crypto";
import type { Resolver } from "@/lib/http/ssrf";
import { log } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { claimDeliveries, recordAttempt } from "./delivery-lease";
import { DELIVERY_TIMEOUT_MS, sendDelivery } from "./send-delivery";

export interface DeliveryRunOptions {
  /** Deliveries claimed in one run. */
  batch: number;
  /** Longer than an attempt can take: a live sender never loses its lease. */
  leaseMs: number;
  /** This sender's lease name. */
  owner: string;
  /** DNS for the endpoint checks (tests point a name at a private address). */
  resolver?: Resolver;
}

const PROCESS_OWNER = `${process.pid}:${randomUUID()}`;

export const DEFAULT_DELIVERY_RUN: DeliveryRunOptions = {
  batch: 20,
  leaseMs: DELIVERY_TIMEOUT_MS + 50_000,
  owner: PROCESS_OWNER,
};

/** Sends one batch of due deliveries; resolves to how many it sent (succeeded or not). */
export async function deliverWebhooks(
  ctx: Pick<Platform, "db" | "env" | "keyring" | "now">,
  options: DeliveryRunOptions = DEFAULT_DELIVERY_RUN,
): Promise<number> {
  const claimed = await claimDeliveries(ctx.db, options.owner, {
    limit: options.batch,
    leaseMs: options.leaseMs,
  });
  await Promise.all(
    claimed.map(async (delivery) => {
      const outcome = await sendDelivery(delivery, ctx, options.resolver);
      const recorded = await recordAttempt(ctx.db, delivery, options.owner, outcome).catch(
        (error: unknown) => {
          log().warn({ err: error, delivery: delivery.id }, "webhook delivery outcome not recorded");
          return false;
        },
      );
      if (!recorded) log().warn({ delivery: delivery.id }, "webhook delivery's lease was lost");
    }),
  );
  return claimed.length;
}
