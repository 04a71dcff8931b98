/**
 * Sends the webhook deliveries that are due (the `deliver-webhooks` background job: every 5 seconds on a
 * long-running server, every minute from Vercel Cron): a bounded batch claimed under a lease, fair across
 * workspaces (delivery-lease.ts), sent at once in parallel, each outcome recorded with the webhook's health
 * (a receiver that keeps failing pauses its webhook and its admins are told: webhook-health.ts). Any instance
 * may run it at any time, and runs may overlap (a batch waits for its slowest receiver, up to the delivery
 * timeout; the scheduler starts another run meanwhile, up to its bound: background-jobs.ts): the lease keeps
 * two from sending one delivery at once, and a dead sender's deliveries are claimed again once its lease
 * lapses.
 */
import { randomUUID } from "node:crypto";
import type { Resolver } from "@/lib/http/ssrf";
import { log } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { claimDeliveries, recordAttempt } from "./delivery-lease";
import { DELIVERY_TIMEOUT_MS, sendDelivery } from "./send-delivery";
import { mailWebhookPaused } from "./webhook-paused-email";

export interface DeliveryRunOptions {
  /** Deliveries claimed in one run. */
  batch: number;
  /** Deliveries of one workspace claimed in one run at most: others' are sent meanwhile. */
  perWorkspace: number;
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
  perWorkspace: 10,
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
    perWorkspace: options.perWorkspace,
    leaseMs: options.leaseMs,
  });
  await Promise.all(
    claimed.map(async (delivery) => {
      const outcome = await sendDelivery(delivery, ctx, options.resolver);
      const { recorded, health } = await recordAttempt(ctx.db, delivery, options.owner, outcome).catch(
        (error: unknown) => {
          log().warn({ err: error, delivery: delivery.id }, "webhook delivery outcome not recorded");
          return { recorded: false, health: undefined };
        },
      );
      if (!recorded) log().warn({ delivery: delivery.id }, "webhook delivery's lease was lost");
      if (health === "paused") {
        log().warn(
          { tenantId: delivery.tenantId, webhook: delivery.webhookId },
          "webhook paused: its receiver keeps failing",
        );
        await mailWebhookPaused(ctx, delivery.webhook).catch((error: unknown) =>
          log().warn({ err: error, webhook: delivery.webhookId }, "webhook pause email failed"),
        );
      }
    }),
  );
  return claimed.length;
}
