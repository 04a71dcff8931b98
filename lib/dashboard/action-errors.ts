import { ServiceError } from "@/lib/pipeline/errors";
import type { ActionState } from "./action-state";

interface IssueDetail {
  path: string;
  message: string;
}

const isIssueList = (details: unknown): details is IssueDetail[] =>
  Array.isArray(details) &&
  details.every((d) => typeof d?.path === "string" && typeof d?.message === "string");

const MESSAGES: Partial<Record<ServiceError["code"], string>> = {
  unauthorized: "Your session has ended. Sign in again.",
};

/** A missing scope is the verb's wording for tokens; a signed-in user lacks a role instead. */
const isScopeRefusal = (error: ServiceError) =>
  error.code === "forbidden" && typeof (error.details as { scope?: unknown } | undefined)?.scope === "string";

/**
 * A verb's error as form feedback. Schema issues (`invalid_input` with details) land on their field (the
 * first segment of the issue path); an `invalid_input` without details lands on `field` when the caller
 * knows which input it is about; anything else is a message for the whole form.
 */
export function toActionError(error: unknown, field?: string): ActionState<never> {
  if (!(error instanceof ServiceError)) throw error;
  if (error.code === "invalid_input" && isIssueList(error.details)) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.details) fieldErrors[issue.path.split(".")[0] || "form"] ??= issue.message;
    return { status: "error", message: "Check the highlighted fields.", fieldErrors };
  }
  if (error.code === "invalid_input" && field) {
    return {
      status: "error",
      message: "Check the highlighted fields.",
      fieldErrors: { [field]: error.message },
    };
  }
  if (isScopeRefusal(error))
    return { status: "error", message: "Only workspace owners and admins can do this." };
  return { status: "error", message: MESSAGES[error.code] ?? error.message };
}
