/**
 * "Copy as curl": the command, run by a real shell (sh) with curl replaced by a function that prints its
 * arguments, passes exactly the URL, the token from the environment and the input as JSON, whatever the
 * input holds — quotes, `$(…)`, backticks, newlines, any Unicode — and runs nothing else.
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { curlCommand, shellQuote } from "@/lib/dashboard/curl-command";

const TOKEN = "smx_from-the-environment";

/** The arguments curl would get when `command` runs in sh (each NUL-terminated), and the shell's stderr. */
function curlArguments(command: string): { args: string[]; stderr: string } {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}`;
  const run = spawnSync("sh", ["-c", script], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", SEARCHMUX_TOKEN: TOKEN },
  });
  return { args: run.stdout.split("\0").slice(0, -1), stderr: run.stderr };
}

const search = { method: "post", path: "/api/v1/search" } as const;

describe("curlCommand", () => {
  it("writes the REST call with the token as $SEARCHMUX_TOKEN", () => {
    const command = curlCommand({
      baseUrl: "https://searchmux.example/",
      route: search,
      input: { query: "rust", max_results: 5 },
    });
    expect(command).toBe(
      [
        "curl -X POST 'https://searchmux.example/api/v1/search'",
        '-H "authorization: Bearer $SEARCHMUX_TOKEN"',
        "-H 'content-type: application/json'",
        `-d '{"query":"rust","max_results":5}'`,
      ].join(" \\\n  "),
    );
    expect(curlArguments(command).args).toEqual([
      "-X",
      "POST",
      "https://searchmux.example/api/v1/search",
      "-H",
      `authorization: Bearer ${TOKEN}`,
      "-H",
      "content-type: application/json",
      "-d",
      '{"query":"rust","max_results":5}',
    ]);
  });

  it("puts a GET route's input in the query string and sends no body", () => {
    const command = curlCommand({
      baseUrl: "http://localhost:3000",
      route: { method: "get", path: "/api/v1/usage" },
      input: { estimate: true, skipped: undefined },
    });
    expect(curlArguments(command).args).toEqual([
      "-X",
      "GET",
      "http://localhost:3000/api/v1/usage?estimate=true",
      "-H",
      `authorization: Bearer ${TOKEN}`,
    ]);
  });

  it("keeps hostile input one word that runs nothing", () => {
    const hostile = [
      "it's",
      "'; touch /tmp/pwned; echo '",
      "$(id) `id` $" + "{HOME} $SEARCHMUX_TOKEN",
      "line\nbreak\r\ttab",
      "\\' \\\\ \"double\" '''",
      "\u2028\u2029 \u0000 ☃ 𝄞",
    ];
    for (const query of hostile) {
      const { args, stderr } = curlArguments(
        curlCommand({ baseUrl: "http://h", route: search, input: { query } }),
      );
      expect(stderr).toBe("");
      expect(args).toHaveLength(9);
      expect(JSON.parse(args[8] as string)).toEqual({ query });
    }
  });

  it("round-trips any input through the shell (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), (query, lens) => {
        const input = { query, lens };
        const { args } = curlArguments(curlCommand({ baseUrl: "http://h", route: search, input }));
        return (
          args[2] === "http://h/api/v1/search" &&
          JSON.stringify(JSON.parse(args[8] as string)) === JSON.stringify(input)
        );
      }),
      { numRuns: 60 },
    );
  });

  it("quotes a quote as close, escaped quote, reopen", () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(shellQuote("")).toBe("''");
  });
});
