import type { ComponentProps, ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

type SectionCardProps = Omit<ComponentProps<typeof Card>, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  /** Classes of the card's body (spacing between its parts, say). */
  contentClassName?: string;
};

/** A titled card around one part of a page: a form, a table, a chart or its empty state. */
export function SectionCard({ title, description, contentClassName, children, ...card }: SectionCardProps) {
  return (
    <Card {...card}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
