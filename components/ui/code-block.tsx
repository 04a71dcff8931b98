import { cn } from "./cn";
import { CopyButton } from "./copy-button";

/**
 * A copyable snippet: the text as-is, wrapped where a line is too long (so a whole command stays in
 * view and selectable on a phone), with its copy button beside it rather than over it.
 */
export function CodeBlock({ code, label, className }: { code: string; label: string; className?: string }) {
  return (
    <div className={cn("flex items-start gap-2 rounded-md border bg-muted/50 p-1.5", className)}>
      <pre className="min-w-0 flex-1 p-1.5 font-mono text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere">
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={`Copy ${label}`} />
    </div>
  );
}
