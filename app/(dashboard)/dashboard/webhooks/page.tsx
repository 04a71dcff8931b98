import { Webhook } from "lucide-react";
import { PageHeader } from "@/components/dashboard/page-header";
import { RestrictedPage } from "@/components/dashboard/restricted-page";
import { SectionCard } from "@/components/dashboard/section-card";
import { WebhookActions } from "@/components/dashboard/webhooks/webhook-actions";
import { WebhookForm } from "@/components/dashboard/webhooks/webhook-form";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { deleteWebhookAction, testWebhookAction } from "@/lib/dashboard/actions/webhooks";
import { formatDateTime } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { WEBHOOK_EVENTS } from "@/lib/services/webhooks/events";
import { listDeliveries } from "@/lib/services/webhooks/list-deliveries";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";
import type { DeliveryView, WebhookView } from "@/lib/services/webhooks/webhook-view";

const TONE = { succeeded: "success", failed: "danger", pending: "warning", delivering: "neutral" } as const;

/** A delivery's last answer (its status, or why it failed) and when it is tried again. */
const lastAnswer = (delivery: DeliveryView) =>
  `${delivery.last_status !== null ? `HTTP ${delivery.last_status}` : (delivery.last_error ?? "—")}${
    delivery.next_attempt_at ? ` · next try ${formatDateTime(new Date(delivery.next_attempt_at))}` : ""
  }`;

/** On a phone the event and its status, the rest folded under the event. */
const DELIVERY_COLUMNS: Column<DeliveryView>[] = [
  { header: "Event", className: "font-mono text-xs", cell: (delivery) => delivery.event },
  { header: "Status", cell: (delivery) => <Badge tone={TONE[delivery.status]}>{delivery.status}</Badge> },
  { header: "Attempts", foldBelow: "2xl", numeric: true, cell: (delivery) => delivery.attempts },
  {
    header: "Last answer",
    foldBelow: "2xl",
    className: "max-w-64 truncate text-xs",
    title: lastAnswer,
    cell: lastAnswer,
  },
  {
    header: "Created",
    foldBelow: "2xl",
    className: "text-xs whitespace-nowrap",
    cell: (delivery) => formatDateTime(new Date(delivery.created_at)),
  },
];

/** Why a webhook is not getting its events: paused after its receiver kept failing, or events dropped. */
function WebhookState({ webhook }: { webhook: WebhookView }) {
  if (webhook.paused_at === null && webhook.dropped_events === 0) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="webhook-state">
      {webhook.paused_at !== null && (
        <p>
          <Badge tone="danger">paused</Badge> since {formatDateTime(new Date(webhook.paused_at))}: its last{" "}
          {webhook.consecutive_failures} attempts failed. No event is sent until a test event succeeds.
        </p>
      )}
      {webhook.dropped_events > 0 && webhook.last_dropped_at !== null && (
        <p className="text-muted-foreground">
          {webhook.dropped_events} events not sent (paused, or over this webhook&apos;s limits), the last{" "}
          {formatDateTime(new Date(webhook.last_dropped_at))}.
        </p>
      )}
    </div>
  );
}

function Deliveries({ deliveries }: { deliveries: readonly DeliveryView[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">No deliveries yet.</p>;
  return (
    <DataTable
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
      rowTestId="delivery"
      label="Deliveries"
      columns={DELIVERY_COLUMNS}
    />
  );
}

export default async function WebhooksPage() {
  const { ctx, canAdminister } = await dashboardSession();
  if (!canAdminister) {
    return (
      <RestrictedPage
        title="Webhooks"
        notice="Webhooks are managed by admins"
        reason="Workspace owners and admins choose where Searchmux sends events (research and crawl jobs done, budgets, keys)."
      />
    );
  }
  const { webhooks } = await listWebhooks({ ctx });
  const logs = await Promise.all(
    webhooks.map((webhook) => listDeliveries({ ctx, input: { id: webhook.id, limit: 10 } })),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description={
          <p>
            Searchmux POSTs each event to your endpoints, signed the Standard Webhooks way (webhook-id,
            webhook-timestamp, webhook-signature), and retries until a 2xx answer for about ten hours.
          </p>
        }
      />
      <SectionCard title="Add a webhook">
        <WebhookForm events={WEBHOOK_EVENTS} />
      </SectionCard>
      {webhooks.length === 0 ? (
        <EmptyState icon={Webhook} title="No webhooks yet">
          Add an endpoint above to receive events.
        </EmptyState>
      ) : (
        logs.map(({ webhook, deliveries }) => (
          <SectionCard
            key={webhook.id}
            title={<span className="font-mono text-sm">{webhook.url}</span>}
            description={webhook.events.join(", ")}
            contentClassName="space-y-4"
          >
            <WebhookActions
              url={webhook.url}
              test={testWebhookAction.bind(null, webhook.id)}
              remove={deleteWebhookAction.bind(null, webhook.id)}
            />
            <WebhookState webhook={webhook} />
            <Deliveries deliveries={deliveries} />
          </SectionCard>
        ))
      )}
    </div>
  );
}
