import { CircleCheck, CircleDashed } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ChecklistStep } from "@/lib/dashboard/checklist";

/** The three steps from signing in to a working agent, each with where to do it. */
export function FirstRunChecklist({ steps }: { steps: readonly ChecklistStep[] }) {
  const done = steps.filter((step) => step.done).length;
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle className="text-base">Get started</CardTitle>
          <Badge tone={done === steps.length ? "success" : "primary"}>
            {done} of {steps.length} done
          </Badge>
        </div>
        <CardDescription>From sign-in to an agent searching through Searchmux.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-3 rounded-md border p-3">
              {step.done ? (
                <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-label="Done" />
              ) : (
                <CircleDashed className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-label="To do" />
              )}
              <div className="min-w-0 space-y-1">
                <h3 className="text-sm font-medium">
                  {index + 1}. {step.title}
                </h3>
                <p className="text-xs text-muted-foreground">{step.body}</p>
                <Link href={step.href} className="text-xs font-medium text-primary hover:underline">
                  {step.action} →
                </Link>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
