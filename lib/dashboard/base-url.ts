import { headers } from "next/headers";
import { config } from "@/lib/config";

/** The deployment's public base URL: AUTH_URL, else the host this page was requested on. */
export async function baseUrl(): Promise<string> {
  const configured = config().auth.url;
  if (configured) return configured.replace(/\/$/, "");
  const h = await headers();
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${h.get("host") ?? "localhost:3000"}`;
}
