"use client";

import { BookOpen } from "lucide-react";
import { Button } from "@/components/ui/button";
import { storeReferenceToken } from "./reference-token";

/** A link to the API reference that hands it this (just created) token for its examples, in this tab only. */
export function TryInReference({ token }: { token: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href="/docs/api" onClick={() => storeReferenceToken(token)}>
        <BookOpen aria-hidden /> Try it in the API reference
      </a>
    </Button>
  );
}
