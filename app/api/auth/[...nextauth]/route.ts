import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { routeMethods } from "@/lib/api/route-methods";
import { authOptions } from "@/lib/auth/options";

// next-auth's three-argument form, so that the options (and the secret) are resolved per request and
// not when `next build` imports this route.
function handler(req: NextRequest, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(req, context, authOptions());
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: handler,
  POST: handler,
});
