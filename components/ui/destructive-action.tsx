import { type LucideIcon, Trash2 } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "./button";
import { ConfirmAction } from "./confirm-action";

type DestructiveActionProps = Omit<ComponentProps<typeof ConfirmAction>, "trigger"> & {
  /** The button's text ("Delete"), and its accessible name naming the thing ("Delete tavily · …"). */
  text: string;
  label: string;
  icon?: LucideIcon;
};

/**
 * A small red button in a row's actions that deletes or removes something once confirmed; in a narrow table
 * (a size container below 36rem) the icon alone, its name still the label.
 */
export function DestructiveAction({ text, label, icon: Icon = Trash2, ...confirm }: DestructiveActionProps) {
  return (
    <ConfirmAction
      {...confirm}
      trigger={
        <Button variant="ghost" size="sm" className="text-destructive" aria-label={label}>
          <Icon aria-hidden /> <span className="@max-xl:sr-only">{text}</span>
        </Button>
      }
    />
  );
}
