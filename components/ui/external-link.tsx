import type { ComponentProps } from "react";
import { cn } from "./cn";

/** A link that opens in a new tab without handing the opener or the referrer to the other site. */
export function ExternalLink({ className, ...props }: Omit<ComponentProps<"a">, "target" | "rel">) {
  return (
    <a
      target="_blank"
      rel="noreferrer noopener"
      className={cn("text-primary hover:underline", className)}
      {...props}
    />
  );
}
