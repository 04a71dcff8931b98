import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";
import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = { title: "Searchmux API reference" };

/**
 * The API reference, rendered by Scalar's viewer from the OpenAPI document /api/openapi.json serves (its
 * description holds the clients' install and examples). Public, as the document is: it lists routes and
 * shapes, no workspace's data.
 */
export default function ApiDocsPage() {
  return (
    <>
      <SiteHeader>
        <a href="/api/openapi.json" className="hover:underline">
          openapi.json
        </a>
        <a href="/dashboard" className="hover:underline">
          Dashboard
        </a>
      </SiteHeader>
      <main>
        <h1 className="sr-only">API reference</h1>
        <ApiReference />
      </main>
    </>
  );
}
