/**
 * "Copy as curl" in the playground: the REST call equivalent to a run, for a POSIX shell. The token is the
 * environment variable SEARCHMUX_TOKEN, never a secret of the page's, and every other value is one word in
 * single quotes, so no input (quotes, `$(…)`, backticks, newlines) can end the word or run anything.
 */

/** The REST route of a tool (the table's `rest`). */
export interface RestRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
}

/** `value` as one shell word: in single quotes, each `'` written as `'\''` (close, escaped quote, reopen). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A GET route's input as its query string (the REST route reads it from there). */
function queryString(input: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(input).filter(([, value]) => value !== undefined && value !== null);
  return pairs.length === 0 ? "" : `?${new URLSearchParams(pairs.map(([k, v]) => [k, String(v)]))}`;
}

/** The curl command calling `route` on `baseUrl` with `input`, one option per line. */
export function curlCommand({
  baseUrl,
  route,
  input,
}: {
  baseUrl: string;
  route: RestRoute;
  input: Readonly<Record<string, unknown>>;
}): string {
  const url = `${baseUrl.replace(/\/$/, "")}${route.path}${route.method === "get" ? queryString(input) : ""}`;
  const parts = [
    `curl -X ${route.method.toUpperCase()} ${shellQuote(url)}`,
    // Double quotes: the shell fills in the variable; it names no secret itself.
    '-H "authorization: Bearer $SEARCHMUX_TOKEN"',
    ...(route.method === "get"
      ? []
      : ["-H 'content-type: application/json'", `-d ${shellQuote(JSON.stringify(input))}`]),
  ];
  return parts.join(" \\\n  ");
}
