"use client";

import "@scalar/api-reference-react/style.css";
import type { ApiReferenceReact as Viewer } from "@scalar/api-reference-react";
import dynamic from "next/dynamic";
import { useTheme } from "next-themes";
import { type ComponentProps, useEffect, useMemo, useState } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { forgetReferenceToken, storedReferenceToken } from "./reference-token";

type Configuration = ComponentProps<typeof Viewer>["configuration"];

/**
 * Scalar's light theme, readable (WCAG AA, 4.5:1 for its small text): darker muted text, HTTP method
 * labels and highlighted function names; and code samples that wrap instead of scrolling sideways, where a keyboard could not scroll them.
 */
const READABLE_CSS = `
.light-mode { --scalar-color-3: #5f5f5f !important; }
.light-mode .sidebar-heading-type--get { color: #1d4ed8 !important; }
.light-mode .sidebar-heading-type--post { color: #047857 !important; }
.light-mode .sidebar-heading-type--put { color: #92400e !important; }
.light-mode .sidebar-heading-type--patch { color: #92400e !important; }
.light-mode .sidebar-heading-type--delete { color: #b91c1c !important; }
.light-mode .sidebar-search-placeholder { color: #5f5f5f !important; }
.light-mode .hljs-title { color: #5b21b6 !important; }
pre[class*="language-"], code[class*="language-"] {
  white-space: pre-wrap !important;
  overflow-wrap: anywhere;
  overflow-x: visible !important;
}
`;

// Scalar validates with zod, whose first object schema probes `new Function("")` for a faster parser: the
// page's CSP refuses eval, and reports the refusal even though zod catches it. jitless skips the probe.
z.config({ jitless: true });

// Scalar renders in the browser only (it is a Vue app mounted into a React element).
const ApiReferenceReact = dynamic(
  () => import("@scalar/api-reference-react").then((module) => module.ApiReferenceReact),
  { ssr: false, loading: () => <p className="p-6 text-sm text-muted-foreground">Loading the reference…</p> },
);

/**
 * The API reference: Scalar's viewer of /api/openapi.json, with its examples in curl, Python, Node.js and
 * more, and its test requests sent from this page to this deployment. Configured to work offline under the
 * page's Content-Security-Policy: no web fonts, telemetry, AI agent, MCP helper, developer toolbar or
 * request proxy of Scalar's own (each would load from, send to or link to Scalar's servers). The bearer field starts with the token
 * the user picked for it in this tab (reference-token.ts), else empty.
 */
export function ApiReference() {
  const { resolvedTheme } = useTheme();
  // Read after mounting (sessionStorage exists in the browser only): undefined until then.
  const [token, setToken] = useState<string | null>();
  useEffect(() => setToken(storedReferenceToken()), []);

  const configuration = useMemo(
    (): Configuration => ({
      url: "/api/openapi.json",
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      // On localhost Scalar adds a toolbar and "Generate SDK", offers of its hosted services: never.
      showDeveloperTools: "never",
      hideClientButton: false,
      persistAuth: false,
      hideDarkModeToggle: true,
      forceDarkModeState: resolvedTheme === "dark" ? "dark" : "light",
      defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
      customCss: READABLE_CSS,
      authentication: {
        preferredSecurityScheme: "bearer",
        ...(token ? { securitySchemes: { bearer: { token } } } : {}),
      },
    }),
    [resolvedTheme, token],
  );

  return (
    <>
      {token ? (
        <p className="mx-auto flex max-w-5xl flex-wrap items-center gap-2 px-6 pt-4 text-sm text-muted-foreground">
          The examples and test requests use the token you picked (kept in this tab only).
          <Button
            variant="link"
            onClick={() => {
              forgetReferenceToken();
              setToken(null);
            }}
          >
            Forget it
          </Button>
        </p>
      ) : null}
      {/* Mounted once the token is known, and anew when it is forgotten: Scalar keeps what it was given. */}
      {token === undefined ? null : <ApiReferenceReact key={token ?? "none"} configuration={configuration} />}
    </>
  );
}
