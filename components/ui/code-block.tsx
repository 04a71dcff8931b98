import { cn } from "./cn";
import { CopyButton } from "./copy-button";

/** A copyable snippet: the text as-is in a scrollable block with a copy button. */
export function CodeBlock({ code, label, className }: { code: string; label: string; className?: string }) {
  return (
    <div className={cn("relative rounded-md border bg-muted/50", className)}>
      <pre className="overflow-x-auto p-3 pr-24 font-mono text-xs leading-relaxed whitespace-pre">
        <code>{code}</code>
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton value={code} label={`Copy ${label}`} />
      </div>
    </div>
  );
}
