/**
 * The errors of the OAuth endpoints, in OAuth's own terms (RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2,
 * RFC 8707 §2, RFC 7009 §2.2): the transports answer `{error, error_description}` or redirect with them.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "temporarily_unavailable";

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    /** Seconds before trying again, for `temporarily_unavailable`. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "OAuthError";
  }
}
