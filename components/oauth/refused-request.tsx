import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import type { RefusedAuthorization } from "@/lib/api/oauth/authorization";

/**
 * An authorization request the consent page cannot go on with: what is wrong and, when the application is
 * known, a link that takes the OAuth error back to it, named by its host. The member follows it by
 * clicking; the page never sends them there by itself.
 */
export function RefusedRequest({ refused }: { refused: RefusedAuthorization }) {
  const { error, returnTo } = refused;
  return (
    <Card>
      <CardHeader>
        <TriangleAlert className="size-8 text-destructive" aria-hidden />
        <h1 className="text-xl font-semibold">This sign-in request cannot be completed</h1>
        <CardDescription role="alert" className="wrap-anywhere">
          {error.message}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {returnTo ? (
          <p className="text-sm text-muted-foreground wrap-anywhere">
            Nothing was shared with the application. To let it know (error <code>{error.code}</code>), return
            to <strong data-testid="redirect-host">{returnTo.host}</strong>; follow the link only if you were
            connecting an application there.
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          {returnTo ? (
            <Button asChild className="h-auto min-h-9 max-w-full whitespace-normal wrap-anywhere">
              <a href={returnTo.url} rel="noreferrer">
                Return to {returnTo.host}
              </a>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link href="/dashboard">Go to the dashboard</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
