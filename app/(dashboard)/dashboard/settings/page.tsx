import { KeyRound, type LucideIcon, Unplug } from "lucide-react";
import { LensesCard } from "@/components/dashboard/lenses/lenses-card";
import { PageHeader } from "@/components/dashboard/page-header";
import { RestrictedNotice } from "@/components/dashboard/restricted-notice";
import { SectionCard } from "@/components/dashboard/section-card";
import { SettingsForm } from "@/components/dashboard/settings/settings-form";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { ActionState } from "@/lib/dashboard/action-state";
import { deleteAllKeysAction, revokeAllTokensAction } from "@/lib/dashboard/actions/settings";
import { formatDateTime } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { maxTenantRateLimit } from "@/lib/pipeline/rate-limit/limits";
import { listLenses } from "@/lib/services/lenses/list-lenses";
import { getTenant } from "@/lib/services/tenants/get-tenant";

function DangerAction({
  title,
  body,
  confirm,
  action,
  icon: Icon,
}: {
  title: string;
  body: string;
  confirm: string;
  action: () => Promise<ActionState>;
  icon: LucideIcon;
}) {
  return (
    <div className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h3 className="font-medium">{title}</h3>
        <p className="text-sm text-muted-foreground">{body}</p>
      </div>
      <ConfirmAction
        trigger={
          <Button variant="destructive" className="shrink-0">
            <Icon aria-hidden /> {confirm}
          </Button>
        }
        title={`${title}?`}
        description={`${body} This cannot be undone.`}
        confirmLabel={confirm}
        action={action}
      />
    </div>
  );
}

export default async function SettingsPage() {
  const { ctx, canAdminister } = await dashboardSession();
  const tenant = await getTenant({ ctx });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Settings"
        description={
          <p>
            Workspace <code className="font-mono">{tenant.id}</code>, created{" "}
            {formatDateTime(tenant.createdAt)}.
          </p>
        }
      />
      {canAdminister ? (
        <>
          <SectionCard title="Workspace">
            <SettingsForm
              name={tenant.name}
              groundedSnippets={tenant.groundedSnippets}
              defaultSearchMode={tenant.defaultSearchMode}
              maxRpm={maxTenantRateLimit(ctx.env)}
            />
          </SectionCard>
          <LensesCard lenses={await listLenses({ ctx })} />
          <SectionCard
            className="border-destructive/50"
            title={<span className="text-destructive">Danger zone</span>}
            description="For a leaked secret or a workspace being wound down."
            contentClassName="divide-y"
          >
            <DangerAction
              title="Revoke every token"
              body="Every MCP and REST client of this workspace is refused within seconds."
              confirm="Revoke all tokens"
              action={revokeAllTokensAction}
              icon={Unplug}
            />
            <DangerAction
              title="Delete every provider key"
              body="Calls fall back to the operator's keys or keyless providers; budgets stay."
              confirm="Delete all keys"
              action={deleteAllKeysAction}
              icon={KeyRound}
            />
          </SectionCard>
        </>
      ) : (
        <RestrictedNotice title={tenant.name}>
          Workspace settings are changed by its owners and admins.
        </RestrictedNotice>
      )}
    </div>
  );
}
