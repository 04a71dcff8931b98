import { Webhook } from "lucide-react";
import { PageHeader } from "@/components/dashboard/page-header";
import { RestrictedPage } from "@/components/dashboard/restricted-page";
import { SectionCard } from "@/components/dashboard/section-card";
import { WebhookActions } from "@/components/dashboard/webhooks/webhook-actions";
import { WebhookForm } from "@/components/dashboard/webhooks/webhook-form";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteWebhookAction, testWebhookAction } from "@/lib/dashboard/actions/webhooks";
import { formatDateTime } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { WEBHOOK_EVENTS } from "@/lib/services/webhooks/events";
import { listDeliveries } from "@/lib/services/webhooks/list-deliveries";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";
import type { DeliveryView } from "@/lib/services/webhooks/webhook-view";

const TONE = { succeeded: "success", failed: "danger", pending: "warning", delivering: "neutral" } as const;

function Deliveries({ deliveries }: { deliveries: readonly DeliveryView[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">No deliveries yet.</p>;
  return (
    <Table aria-label="Deliveries">
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Attempts</TableHead>
          <TableHead>Last answer</TableHead>
          <TableHead>Created</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((delivery) => (
          <TableRow key={delivery.id} data-testid="delivery">
            <TableCell className="font-mono text-xs">{delivery.event}</TableCell>
            <TableCell>
              <Badge tone={TONE[delivery.status]}>{delivery.status}</Badge>
            </TableCell>
            <TableCell>{delivery.attempts}</TableCell>
            <TableCell className="max-w-64 truncate text-xs">
              {delivery.last_status !== null ? `HTTP ${delivery.last_status}` : (delivery.last_error ?? "—")}
              {delivery.next_attempt_at
                ? ` · next try ${formatDateTime(new Date(delivery.next_attempt_at))}`
                : ""}
            </TableCell>
            <TableCell className="text-xs">{formatDateTime(new Date(delivery.created_at))}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
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
            <Deliveries deliveries={deliveries} />
          </SectionCard>
        ))
      )}
    </div>
  );
}
