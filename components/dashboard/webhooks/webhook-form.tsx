"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { CodeBlock } from "@/components/ui/code-block";
import { FormFields } from "@/components/ui/form-fields";
import { FormFooter } from "@/components/ui/form-footer";
import { Label } from "@/components/ui/label";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { IDLE } from "@/lib/dashboard/action-state";
import { createWebhookAction } from "@/lib/dashboard/actions/webhooks";

/** Registers a webhook; once created, its signing secret is shown here, this once. */
export function WebhookForm({ events }: { events: readonly string[] }) {
  const { state, pending, form } = useFormAction(createWebhookAction, { resetOnSuccess: true });
  const created = state.status === "success" ? state.data : undefined;
  return (
    <form {...form} className="grid gap-4">
      <FormFields idPrefix="webhook" errors={state.fieldErrors ?? {}}>
        <TextField
          label="Endpoint URL"
          hint="https; private and internal addresses are refused."
          name="url"
          placeholder="https://example.com/hooks/searchmux"
          autoComplete="off"
          required
        />
      </FormFields>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Events</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {events.map((event) => (
            <div key={event} className="flex items-center gap-2">
              <Checkbox id={`event-${event}`} name="events" value={event} defaultChecked />
              <Label htmlFor={`event-${event}`} className="font-mono font-normal">
                {event}
              </Label>
            </div>
          ))}
        </div>
      </fieldset>
      {created ? (
        <div className="space-y-2" data-testid="new-webhook-secret">
          <p className="text-sm">
            Signing secret for {created.url}: copy it now, it is shown only this once.
          </p>
          <CodeBlock code={created.secret} label="signing secret" />
        </div>
      ) : null}
      <FormFooter pending={pending} state={state.status === "error" ? state : IDLE}>
        Add webhook
      </FormFooter>
    </form>
  );
}
