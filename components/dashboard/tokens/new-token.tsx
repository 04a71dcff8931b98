"use client";

import { TriangleAlert } from "lucide-react";
import { createContext, type ReactNode, useContext, useState } from "react";
import { ClientConfigs } from "@/components/client-configs";
import { TryInReference } from "@/components/docs/try-in-reference";
import { CodeBlock } from "@/components/ui/code-block";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import type { NewToken } from "@/lib/dashboard/actions/tokens";

const ShowNewToken = createContext<(token: NewToken) => void>(() => {});

/** Lets any form on the page reveal a freshly created token, in one dialog that outlives the form's row. */
export function NewTokenProvider({ baseUrl, children }: { baseUrl: string; children: ReactNode }) {
  const [shown, setShown] = useState<NewToken>();
  return (
    <ShowNewToken.Provider value={setShown}>
      {children}
      <Dialog open={shown !== undefined} onOpenChange={(open) => open || setShown(undefined)}>
        {shown ? (
          <DialogContent
            title={`Token “${shown.name}” created`}
            description="Copy it now: it is shown only this once. Only a hash is stored."
            className="max-w-2xl"
          >
            <p className="flex items-center gap-2 rounded-md bg-warning/10 p-2 text-sm text-warning">
              <TriangleAlert className="size-4 shrink-0" aria-hidden />
              Anyone with this token can search on this workspace's keys and budgets.
            </p>
            <div data-testid="new-token">
              <CodeBlock code={shown.token} label="token" />
            </div>
            <TryInReference token={shown.token} />
            <div className="space-y-2">
              <h3 className="text-sm font-medium">Connect a client with it</h3>
              <ClientConfigs baseUrl={baseUrl} token={shown.token} />
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </ShowNewToken.Provider>
  );
}

export const useShowNewToken = () => useContext(ShowNewToken);
