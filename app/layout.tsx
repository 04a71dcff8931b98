import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/theme-provider";
import { NONCE_HEADER } from "@/lib/content-security-policy";
import "./globals.css";

export const metadata: Metadata = {
  title: "Searchmux — one search gateway for AI agents",
  description:
    "A personal MCP URL and REST token that fans every query out to many search providers, fuses the results and keeps within your budgets.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The request's CSP nonce (proxy.ts) for next-themes' inline script. Reading the request also renders
  // every page per request, as a nonce needs: a page prerendered at build time has scripts without one.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // next-themes sets the theme class on <html> before hydration.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen font-sans">
        <ThemeProvider nonce={nonce}>{children}</ThemeProvider>
      </body>
    </html>
  );
}
