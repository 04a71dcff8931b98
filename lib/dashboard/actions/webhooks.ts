"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formList, formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/services/webhooks/delete-webhook";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import type { WebhookEvent } from "@/lib/services/webhooks/events";
import { testWebhook } from "@/lib/services/webhooks/test-webhook";

/** A webhook just created: its signing secret, shown once. */
export interface NewWebhook {
  url: string;
  secret: string;
}

export async function createWebhookAction(
  _previous: ActionState<NewWebhook>,
  form: FormData,
): Promise<ActionState<NewWebhook>> {
  const { ctx } = await dashboardSession();
  try {
    const created = await createWebhook({
      ctx,
      input: { url: formText(form, "url") ?? "", events: formList(form, "events") as WebhookEvent[] },
    });
    refresh();
    return { status: "success", data: { url: created.url, secret: created.secret } };
  } catch (error) {
    return toActionError(error, "url");
  }
}

/** Queues a test event and sends it now (one bounded attempt), so the delivery log shows its outcome. */
export async function testWebhookAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await testWebhook({ ctx, input: { id } });
    await deliverWebhooks(ctx);
    refresh();
    return { status: "success", message: "Test event sent; its delivery is listed below." };
  } catch (error) {
    return toActionError(error);
  }
}

export async function deleteWebhookAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await deleteWebhook({ ctx, input: { id } });
    refresh();
    return { status: "success", message: "Webhook deleted." };
  } catch (error) {
    return toActionError(error);
  }
}
