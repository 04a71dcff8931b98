/**
 * Reddit's application-only OAuth token (no user): the app's client id and secret exchanged for a bearer
 * token that lasts an hour, kept in this process until shortly before it expires so a fetch costs one
 * request, not two.
 * Docs: https://github.com/reddit-archive/reddit/wiki/OAuth2 ("Application Only OAuth"); the same grant in
 *   Reddit's Python client core: praw-dev/prawcore prawcore/auth.py (ReadOnlyAuthorizer, grant_type
 *   client_credentials; "error" may come with HTTP 200).
 * Wire: POST {token base}/api/v1/access_token, HTTP Basic <client id>:<client secret>, form
 *   grant_type=client_credentials -> {access_token, token_type: "bearer", expires_in: 3600, scope: "*"}
 *   or {error}; bad client credentials answer 401.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";

/** Renewed this long before Reddit's expiry, so a token never lapses between the check and the call. */
const EXPIRY_MARGIN_MS = 60_000;

const tokenSchema = z.object({
  access_token: z.string().min(1).optional(),
  expires_in: z.number().positive().optional(),
  error: z.string().optional(),
});

const tokens = new Map<string, { token: string; expiresAt: number }>();

export interface TokenRequest {
  /** Where Reddit issues tokens: https://www.reddit.com, or the proxy or test server that stands in for it. */
  tokenBase: string;
  /** The key as configured: "<client id>:<client secret>". */
  credentials: string;
  userAgent: string;
  signal: AbortSignal;
}

/** A valid app-only token for these credentials: the one held, or a new one. */
export async function appOnlyToken(request: TokenRequest): Promise<string> {
  const cacheKey = keyOf(request);
  const held = tokens.get(cacheKey);
  if (held && held.expiresAt > Date.now()) return held.token;
  const { clientId, clientSecret } = splitCredentials(request.credentials);
  const response = await requestJson(buildUrl(request.tokenBase, "/api/v1/access_token"), {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
      "user-agent": request.userAgent,
    },
    form: { grant_type: "client_credentials" },
    signal: request.signal,
  });
  const body = parseResponse(tokenSchema, response.json);
  if (!body.access_token || !body.expires_in) {
    throw new ProviderError("bad_key", `Reddit issued no token: ${body.error ?? "no access_token"}`);
  }
  forgetExpired();
  tokens.set(cacheKey, {
    token: body.access_token,
    expiresAt: Date.now() + body.expires_in * 1000 - EXPIRY_MARGIN_MS,
  });
  return body.access_token;
}

/** Drops the token held for these credentials (Reddit refused it: revoked, or expired early). */
export function forgetToken(request: Pick<TokenRequest, "tokenBase" | "credentials">): void {
  tokens.delete(keyOf(request));
}

function splitCredentials(credentials: string): { clientId: string; clientSecret: string } {
  const colon = credentials.indexOf(":");
  const clientId = credentials.slice(0, colon).trim();
  const clientSecret = credentials.slice(colon + 1).trim();
  if (colon < 0 || !clientId || !clientSecret) {
    throw new ProviderError("bad_key", "the Reddit key must be <client id>:<client secret>");
  }
  return { clientId, clientSecret };
}

/** Tokens are held by a digest of where and for whom, never by the secret itself. */
function keyOf({ tokenBase, credentials }: Pick<TokenRequest, "tokenBase" | "credentials">): string {
  return createHash("sha256").update(`${tokenBase}\n${credentials}`).digest("hex");
}

function forgetExpired(): void {
  const now = Date.now();
  for (const [key, held] of tokens) if (held.expiresAt <= now) tokens.delete(key);
}
