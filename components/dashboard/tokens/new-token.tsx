"use client";

import { TriangleAlert } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from "react";
import { ClientConfigs } from "@/components/client-configs";
import { TryInReference } from "@/components/docs/try-in-reference";
import { CodeBlock } from "@/components/ui/code-block";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import type { NewToken } from "@/lib/dashboard/actions/tokens";

/** Shows `token`; closing the dialog gives focus back to `opener`, the control that created it. */
type ShowToken = (token: NewToken, opener: HTMLElement | null) => void;

const ShowNewToken = createContext<ShowToken>(() => {});

/**
 * Lets any form on the page reveal a freshly created token, in one dialog that outlives the form's row.
 * The dialog has no trigger of its own, so it is told where focus goes back to when it closes (Radix would
 * leave it on the page's body); an opener gone meanwhile (a rotated token's row) leaves Radix's default.
 */
export function NewTokenProvider({ baseUrl, children }: { baseUrl: string; children: ReactNode }) {
  const [shown, setShown] = useState<NewToken>();
  const opener = useRef<HTMLElement | null>(null);
  const show = useCallback<ShowToken>((token, from) => {
    opener.current = from;
    setShown(token);
  }, []);
  return (
    <ShowNewToken.Provider value={show}>
      {children}
      <Dialog open={shown !== undefined} onOpenChange={(open) => open || setShown(undefined)}>
        {shown ? (
          <DialogContent
            onCloseAutoFocus={(event) => {
              if (!opener.current?.isConnected) return;
              event.preventDefault();
              opener.current.focus();
            }}
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
