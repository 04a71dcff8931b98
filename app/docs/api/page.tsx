import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";
import { CodeText } from "@/components/ui/code-text";
import { OPERATIONS, openApiDocument } from "@/lib/api/openapi";

export const metadata: Metadata = { title: "Searchmux API" };

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  post: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  put: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  delete: "bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200",
};

/** The API reference, rendered from the same OpenAPI document /api/openapi.json serves. */
export default function ApiDocsPage() {
  const { paths } = openApiDocument();
  return (
    <>
      <SiteHeader>
        <a href="/api/openapi.json" className="hover:underline">
          openapi.json
        </a>
      </SiteHeader>
      <main className="mx-auto max-w-5xl px-6 py-10">
        <h1 className="text-2xl font-semibold">API reference</h1>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Send <code className="font-mono">Authorization: Bearer smx_…</code>. Errors are{" "}
          <code className="font-mono">{"{error: {code, message, details?}}"}</code>.
        </p>
        <ul className="mt-8 space-y-4">
          {OPERATIONS.map((op) => {
            const detail = (paths[op.path] as Record<string, { requestBody?: unknown; responses: unknown }>)[
              op.method
            ];
            return (
              <li
                key={`${op.method} ${op.path}`}
                className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
              >
                <div className="flex flex-wrap items-center gap-3">
                  <span
                    className={`rounded px-2 py-0.5 font-mono text-xs uppercase ${METHOD_STYLE[op.method]}`}
                  >
                    {op.method}
                  </span>
                  <code className="font-mono text-sm">{op.path}</code>
                  <span className="text-xs text-zinc-500">
                    {op.scope === null ? "no token" : `scope: ${op.scope}`}
                  </span>
                </div>
                <p className="mt-2 text-sm">
                  <CodeText>{op.summary}</CodeText>
                </p>
                {detail?.requestBody ? (
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
                      Request body
                    </summary>
                    <pre className="mt-2 overflow-x-auto rounded bg-zinc-100 p-3 text-xs dark:bg-zinc-900">
                      {JSON.stringify(detail.requestBody, null, 2)}
                    </pre>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ul>
      </main>
    </>
  );
}
