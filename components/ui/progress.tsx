"use client";

import { Progress as ProgressPrimitive } from "radix-ui";
import { cn } from "./cn";

interface ProgressProps {
  /** 0–100. */
  value: number;
  label: string;
  tone?: "default" | "warning" | "danger";
  className?: string;
}

const TONES = { default: "bg-primary", warning: "bg-warning", danger: "bg-destructive" } as const;

export function Progress({ value, label, tone = "default", className }: ProgressProps) {
  const clamped = Math.min(Math.max(value, 0), 100);
  return (
    <ProgressPrimitive.Root
      value={clamped}
      aria-label={label}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-muted", className)}
    >
      <ProgressPrimitive.Indicator
        className={cn("h-full transition-transform", TONES[tone])}
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
