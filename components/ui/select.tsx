"use client";

import { Check, ChevronDown } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { inputClasses } from "./input";

/** The floating panel of a select or a menu. */
export const popoverClasses = "z-50 rounded-md border bg-card shadow-md";

export interface SelectOption {
  value: string;
  label: string;
}

/** Options from `[value, label]` pairs, or from values that are their own labels. */
export const selectOptions = (entries: ReadonlyArray<string | readonly [string, string]>): SelectOption[] =>
  entries.map((entry) =>
    typeof entry === "string" ? { value: entry, label: entry } : { value: entry[0], label: entry[1] },
  );

interface SelectProps extends Omit<ComponentProps<typeof SelectPrimitive.Root>, "children"> {
  id?: string;
  options: readonly SelectOption[];
  placeholder?: string;
  className?: string;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

/**
 * A Radix select over a fixed list of options. With `name` it also submits its value with the
 * surrounding form (Radix renders a hidden native select for that).
 */
export function Select({
  id,
  options,
  placeholder,
  className,
  "aria-label": ariaLabel,
  "aria-invalid": ariaInvalid,
  "aria-describedby": ariaDescribedBy,
  ...root
}: SelectProps) {
  return (
    <SelectPrimitive.Root {...root}>
      <SelectPrimitive.Trigger
        id={id}
        aria-label={ariaLabel}
        aria-invalid={ariaInvalid}
        aria-describedby={ariaDescribedBy}
        className={cn(inputClasses, "flex items-center justify-between gap-2 text-left", className)}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon>
          <ChevronDown className="size-4 opacity-60" aria-hidden />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className={cn(
            popoverClasses,
            "max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) overflow-hidden",
          )}
        >
          <SelectPrimitive.Viewport className="p-1">
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                className="relative flex cursor-default select-none items-center rounded-sm py-1.5 pr-2 pl-7 text-sm outline-none data-highlighted:bg-accent data-disabled:opacity-50"
              >
                <SelectPrimitive.ItemIndicator className="absolute left-2 inline-flex">
                  <Check className="size-4" aria-hidden />
                </SelectPrimitive.ItemIndicator>
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
