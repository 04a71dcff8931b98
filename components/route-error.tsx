"use client";

import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";

/** A route segment that failed to render (error.tsx): what happened and a way to try again. */
export function RouteError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.warn("page failed:", error);
  }, [error]);
  const digest = error instanceof Error && "digest" in error ? String(error.digest) : undefined;
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 px-6 py-16 text-center">
      <TriangleAlert className="size-10 text-warning" aria-hidden />
      <h1 className="text-xl font-semibold">This page could not be loaded</h1>
      <p className="text-sm text-muted-foreground">
        Something went wrong on our side. Try again; if it keeps happening, the operator can find the details
        in the server log{digest ? ` (reference ${digest})` : ""}.
      </p>
      <Button onClick={() => retry()}>Try again</Button>
    </div>
  );
}
