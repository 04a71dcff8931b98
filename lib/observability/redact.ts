/**
 * Redaction, in one place, for everything that reaches a trace, a log or an exported span: secret-looking
 * fields, our own tokens, bearer credentials, keys and codes in URL query strings, the path segments of
 * our URLs that are secrets, and any secret the caller knows of (the provider keys resolved for the call).
 */
const REDACTED = "[redacted]";
/** A field name ending in a secret's name; `.` for OpenTelemetry's dotted attribute names. */
const SECRET_FIELD = /(^|[._-])(api[_-]?key|key|token|secret|password|authorization|cookie|credential)s?$/i;
/** `code` is the one-time code of an OAuth sign-in callback (`/api/auth/callback/<provider>?code=`). */
const SECRET_QUERY =
  /([?&](?:api[_-]?key|key|token|access[_-]?token|x-api-key|app_id|auth|code)=)[^&#\s"']+/gi;
/**
 * Paths whose segment is itself the secret: the MCP URL form (/api/mcp/t/<token>; whatever stands there
 * was meant as a token) and invitation links (/invite/<secret>). Request URLs carry them into spans.
 * A bracketed segment is a route template (`/api/mcp/t/[token]`, a log's route) and stays.
 */
const SECRET_PATH = /(\/(?:api\/mcp\/t|invite)\/)(?!\[)[^/?#\s"']+/g;
const OUR_TOKEN = /smx_[0-9A-Za-z]{38}/g;
/** A webhook's signing secret (lib/services/webhooks/signature.ts). */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]{16,}/g;
const BEARER = /\b(Bearer|Bot|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** Secrets shorter than this are not searched for (they would redact ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** A cheap first look: text without any of these cannot match the patterns above. */
const MAYBE_SECRET =
  /smx_|whsec_|Bearer|Bot\s|Basic|\/api\/mcp\/t\/|\/invite\/|[?&][\w-]*(?:key|token|app_id|auth|code)=/i;

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = MAYBE_SECRET.test(text)
    ? text
        .replace(OUR_TOKEN, REDACTED)
        .replace(WEBHOOK_SECRET, REDACTED)
        .replace(BEARER, `$1 ${REDACTED}`)
        .replace(SECRET_QUERY, `$1${REDACTED}`)
        .replace(SECRET_PATH, `$1${REDACTED}`)
    : text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A deep copy with secret fields blanked and every string passed through redactText. */
export function redactValue<T>(value: T, secrets: readonly string[] = []): T {
  if (typeof value === "string") return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[key] =
        SECRET_FIELD.test(key) && item !== null && item !== undefined ? REDACTED : redactValue(item, secrets);
    }
    return out as T;
  }
  return value;
}
