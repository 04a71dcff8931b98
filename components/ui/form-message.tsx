import { CircleAlert, CircleCheck } from "lucide-react";
import { cn } from "./cn";

/** The outcome of a form submission (an ActionState), announced to screen readers. */
export function FormMessage({
  state,
  className,
}: {
  state: { status: "idle" | "success" | "error"; message?: string };
  className?: string;
}) {
  const { status, message } = state;
  const Icon = status === "error" ? CircleAlert : CircleCheck;
  return (
    <p
      role={status === "error" ? "alert" : "status"}
      className={cn(
        "flex items-start gap-1.5 text-sm",
        status === "error" ? "text-destructive" : "text-success",
        className,
      )}
    >
      {message && status !== "idle" ? (
        <>
          <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
          {message}
        </>
      ) : null}
    </p>
  );
}
