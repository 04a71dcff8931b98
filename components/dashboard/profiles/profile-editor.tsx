"use client";

import { SlidersHorizontal } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { ConnectionProfile } from "@/lib/db/schema";

/** `{"tools":[` … `]}` around the listed tools' entries, joined by commas. */
const LIST_ENVELOPE_BYTES = '{"tools":[]}'.length;

/**
 * A connection's profile (a token's or a connected app's): which of the tools its scopes allow it lists, and
 * default arguments per tool as JSON, with the `tools/list` size the choice costs a model (bytes of the
 * listed tools before defaults; tokens ≈ bytes / 4).
 */
export function ProfileEditor({
  label,
  profile,
  toolSizes,
  save,
}: {
  label: string;
  profile: ConnectionProfile | null;
  /** The tools its scopes allow, in list order, each with its entry's bytes in tools/list. */
  toolSizes: ReadonlyArray<{ name: string; bytes: number }>;
  save: (previous: ActionState, form: FormData) => Promise<ActionState>;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set(profile?.tools ?? toolSizes.map((tool) => tool.name)),
  );
  const { state, pending, form } = useFormAction(save);
  const listed = toolSizes.filter((tool) => chosen.has(tool.name));
  const bytes =
    LIST_ENVELOPE_BYTES + listed.reduce((sum, tool) => sum + tool.bytes, 0) + Math.max(0, listed.length - 1);
  const toggle = (name: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Profile of ${label}`}>
          <SlidersHorizontal aria-hidden /> Profile
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Profile of “${label}”`}
        description="The tools it lists and may call, and default arguments its calls get unless they give their own."
      >
        <form {...form} className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Tools</legend>
            {toolSizes.map((tool) => (
              <div key={tool.name} className="flex items-center gap-2 text-sm">
                <Checkbox
                  id={`tool-${tool.name}`}
                  name="tools"
                  value={tool.name}
                  checked={chosen.has(tool.name)}
                  onCheckedChange={(on) => toggle(tool.name, on === true)}
                />
                <label htmlFor={`tool-${tool.name}`} className="font-mono">
                  {tool.name}
                </label>
                <span className="text-xs text-muted-foreground">{tool.bytes} B</span>
              </div>
            ))}
          </fieldset>
          {/* Every tool checked: no narrowing, so tools its scopes gain later are listed too. */}
          <input type="hidden" name="allTools" value={listed.length === toolSizes.length ? "1" : ""} />
          <p className="text-sm" data-testid="tool-list-size">
            tools/list: {bytes.toLocaleString("en")} bytes, ≈{Math.ceil(bytes / 4).toLocaleString("en")}{" "}
            tokens
          </p>
          <Field
            id="profile-defaults"
            label="Defaults (JSON)"
            hint='Per tool, e.g. {"web_search": {"max_results": 5, "region": "de"}}'
            error={state.fieldErrors?.defaults}
          >
            {(control) => (
              <textarea
                {...control}
                name="defaults"
                rows={4}
                defaultValue={profile?.defaults ? JSON.stringify(profile.defaults, null, 2) : ""}
                className="w-full rounded-md border border-input bg-background p-2 font-mono text-xs"
              />
            )}
          </Field>
          <div className="flex items-center justify-between gap-2">
            <FormMessage state={state} />
            <SubmitButton pending={pending}>Save profile</SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
