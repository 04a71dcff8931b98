import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Searchmux — one search gateway for AI agents",
  description:
    "A personal MCP URL and REST token that fans every query out to many search providers, fuses the results and keeps within your budgets.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
