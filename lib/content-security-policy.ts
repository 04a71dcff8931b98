/**
 * Every page's Content-Security-Policy, with a nonce of its own per request: proxy.ts makes one and sends the
 * policy with both the request (Next.js reads the nonce from there and puts it on every script it renders)
 * and the response; the root layout hands it to next-themes' inline script. Route handlers and static files
 * get static headers from next.config.ts. docs/decisions.md, "Security headers", says why.
 */

/** The request header that carries a page request's nonce from proxy.ts to the root layout. */
export const NONCE_HEADER = "x-nonce";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * A page's policy. Scripts: only those that carry the nonce and those they load ('strict-dynamic': the
 * page's chunks); development adds 'unsafe-eval', with which React's dev build rebuilds server error stacks.
 * Styles may be inline: React renders style attributes (Radix popovers, recharts) and Radix and next-themes
 * insert <style> elements, none with a nonce (and a nonce in style-src would switch 'unsafe-inline' off).
 */
export function pagePolicy(nonce: string, { development }: { development: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
