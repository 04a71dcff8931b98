import type { ReactNode } from "react";
import { PageHeader } from "./page-header";
import { RestrictedNotice } from "./restricted-notice";

/** A whole page the signed-in user's role may not use: its title, why not, and anything still shown. */
export function RestrictedPage({
  title,
  notice,
  reason,
  children,
}: {
  title: string;
  /** The notice's heading. */
  notice: string;
  reason: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <PageHeader title={title} />
      <RestrictedNotice title={notice}>{reason}</RestrictedNotice>
      {children}
    </div>
  );
}
