/**
 * Runs before every page: gives it a Content-Security-Policy with a nonce of its own
 * (lib/content-security-policy.ts). Not before route handlers under /api and /.well-known, the framework's
 * files (/_next) or prefetches, none of which is a document (next.config.ts gives them static headers).
 */
import { type NextRequest, NextResponse } from "next/server";
import { NONCE_HEADER, newNonce, pagePolicy } from "@/lib/content-security-policy";

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const policy = pagePolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set(NONCE_HEADER, nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|api$|\\.well-known/|_next/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
