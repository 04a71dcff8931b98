import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A table that scrolls sideways on narrow screens instead of overflowing the page. Its wrapper is a size
 * container: cells adapt to the table's width (`@xl:` …), not the window's, so a table in a half-width card
 * folds as it would on a phone.
 */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    // relative: keeps absolutely positioned descendants (sr-only labels) inside the scroll area.
    <div className="@container relative w-full overflow-x-auto">
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader(props: ComponentProps<"thead">) {
  return <thead className="[&_tr]:border-b" {...props} />;
}

export function TableBody(props: ComponentProps<"tbody">) {
  return <tbody className="[&_tr:last-child]:border-0" {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b transition-colors hover:bg-muted/40", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      className={cn(
        "h-9 whitespace-nowrap px-2 text-left align-middle text-xs font-medium text-muted-foreground @xl:px-3",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-2 py-2 align-middle @xl:px-3", className)} {...props} />;
}
