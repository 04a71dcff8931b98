"use server";

import { refresh } from "next/cache";
import {
  authorizationErrorUrl,
  authorizationResponseUrl,
  parseAuthorizationQuery,
} from "@/lib/api/oauth/authorization";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { baseUrl } from "@/lib/dashboard/base-url";
import { formList, formText } from "@/lib/dashboard/form-data";
import { dashboardSession, userSystemContext } from "@/lib/dashboard/session";
import { mcpResourceOf } from "@/lib/mcp/resource-metadata";
import type { Scope } from "@/lib/pipeline/context";
import { approveAuthorization } from "@/lib/services/oauth/approve-authorization";
import { checkAuthorizationRequest } from "@/lib/services/oauth/authorization-request";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { revokeConnectedApp } from "@/lib/services/oauth/revoke-connected-app";

/** Where the consent sends the browser next: back to the application. */
export interface ConsentOutcome {
  redirectTo: string;
}

/** The signed-in member, this site's issuer identifier and the resource tokens are issued for. */
async function consent() {
  const issuer = new URL(await baseUrl()).origin;
  return { ctx: await userSystemContext(), issuer, resources: [mcpResourceOf(issuer)] };
}

const asActionError = (error: unknown, field?: string): ActionState<never> =>
  error instanceof OAuthError ? { status: "error", message: error.message } : toActionError(error, field);

/** Approves the authorization request `query` for the workspace and scopes the form names. */
export async function approveAuthorizationAction(
  query: string,
  _previous: ActionState<ConsentOutcome>,
  form: FormData,
): Promise<ActionState<ConsentOutcome>> {
  try {
    const { ctx, issuer, resources } = await consent();
    const approved = await approveAuthorization({
      ctx,
      input: {
        params: parseAuthorizationQuery(query),
        resources,
        tenantId: formText(form, "tenantId") ?? "",
        scopes: formList(form, "scopes") as Scope[],
      },
    });
    const redirectTo =
      "refused" in approved
        ? authorizationErrorUrl(approved.redirectUri, issuer, approved.refused, approved.state)
        : authorizationResponseUrl(approved.redirectUri, issuer, {
            code: approved.code,
            state: approved.state,
          });
    return { status: "success", data: { redirectTo } };
  } catch (error) {
    return asActionError(error, "scopes");
  }
}

/** Declines the request: the application hears `access_denied` (after the request is checked again). */
export async function denyAuthorizationAction(query: string): Promise<ActionState<ConsentOutcome>> {
  try {
    const { ctx, issuer, resources } = await consent();
    const checked = await checkAuthorizationRequest({
      ctx,
      input: { params: parseAuthorizationQuery(query), resources },
    });
    const { redirectUri, state } = "refused" in checked ? checked : checked.request;
    const denied = new OAuthError("access_denied", "the member declined the request");
    return {
      status: "success",
      data: { redirectTo: authorizationErrorUrl(redirectUri, issuer, denied, state) },
    };
  } catch (error) {
    return asActionError(error);
  }
}

/** Disconnects an app from the Connect page: its tokens stop working within seconds. */
export async function revokeConnectedAppAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await revokeConnectedApp({ ctx, input: { id } });
    refresh();
    return { status: "success", message: "App disconnected." };
  } catch (error) {
    return toActionError(error);
  }
}
