import type { ComponentProps, ReactNode } from "react";
import { FormMessage } from "./form-message";
import { SubmitButton } from "./submit-button";

/** A form's last row: its submit button, and the outcome of the last submission beside it. */
export function FormFooter({
  pending,
  state,
  children,
}: {
  pending: boolean;
  state: ComponentProps<typeof FormMessage>["state"];
  /** The submit button's label. */
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <SubmitButton pending={pending}>{children}</SubmitButton>
      <FormMessage state={state} />
    </div>
  );
}
