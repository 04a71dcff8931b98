/**
 * OAuth's requests to the token and revocation endpoints: an application/x-www-form-urlencoded body
 * (small: FORM_MAX_BYTES), each parameter at most once (RFC 6749 §3.2), and the client's credentials from
 * HTTP Basic (§2.3.1, the id and secret form-encoded) or from the body.
 */
import { readBody } from "@/lib/api/body";
import type { ClientCredentials } from "@/lib/services/oauth/authenticate-client";
import { OAuthError } from "@/lib/services/oauth/oauth-error";

const FORM_MAX_BYTES = 16 * 1024;

export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    throw new OAuthError("invalid_request", "the body must be application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams((await readBody(request, FORM_MAX_BYTES)).toString("utf8"));
  const names = [...form.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new OAuthError("invalid_request", `parameter '${repeated}' is repeated`);
  return form;
}

/** A form field, absent when missing or empty. */
export const field = (form: URLSearchParams, name: string): string | undefined => form.get(name) || undefined;

/** A form-encoded Basic credential part (RFC 6749 §2.3.1). */
function formDecoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw new OAuthError("invalid_client", "malformed Basic credentials");
  }
}

export function clientCredentials(request: Request, form: URLSearchParams): ClientCredentials {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "malformed Basic credentials");
    const formId = field(form, "client_id");
    const clientId = formDecoded(decoded.slice(0, colon));
    if (formId !== undefined && formId !== clientId) {
      throw new OAuthError("invalid_request", "client_id differs from the Basic credentials'");
    }
    return { clientId, clientSecret: formDecoded(decoded.slice(colon + 1)) };
  }
  return { clientId: field(form, "client_id"), clientSecret: field(form, "client_secret") };
}
