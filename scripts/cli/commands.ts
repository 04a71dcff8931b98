/** The operator CLI's commands; each parses its flags and calls a service verb (a tool's through the tool table). */

import { sweepExpiredReservations } from "@/lib/pipeline/budgets/admission";
import type { Scope } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { platform, systemContext } from "@/lib/pipeline/platform";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { rotateKeys } from "@/lib/services/keys/rotate-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { paperFullText } from "@/lib/services/papers/paper-full-text";
import { listPrices } from "@/lib/services/providers/list-prices";
import { verifyProviders } from "@/lib/services/providers/verify-providers";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { pruneTraces } from "@/lib/services/traces/prune-traces";
import { formatFetch } from "@/lib/tools/format";
import { toFetchResponse } from "@/lib/tools/responses";
import { tools } from "@/lib/tools/table";
import { asOperatorOf, type CliCommand, callerOf, list, number, operator, required } from "./command";
import { formatPrices } from "./format-prices";
import { formatUsage } from "./format-usage";
import { formatVerification } from "./format-verification";
import { printed, shortToolCommand, TOOL_COMMANDS } from "./tool-commands";

export const commands: Record<string, CliCommand> = {
  "tenant create": {
    usage: "tenant create --name N                      prints the tenant id",
    flags: ["name"],
    async run(flags) {
      const tenant = await createTenant({
        ctx: await systemContext(operator),
        input: { name: required(flags, "name") },
      });
      return tenant.id;
    },
  },
  "token create": {
    usage: "token create --tenant ID --name N [--scopes a,b] [--expires DATE]   prints the token once",
    flags: ["tenant", "name", "scopes", "expires"],
    async run(flags) {
      const created = await createToken({
        ctx: await asOperatorOf(flags),
        input: {
          name: required(flags, "name"),
          scopes: list(flags.scopes) as Scope[] | undefined,
          expiresAt: flags.expires,
        },
      });
      return created.token;
    },
  },
  "token revoke": {
    usage: "token revoke --tenant ID --id TOKEN_ID",
    flags: ["tenant", "id"],
    async run(flags) {
      await revokeToken({ ctx: await asOperatorOf(flags), input: { id: required(flags, "id") } });
      return "revoked";
    },
  },
  "key set": {
    usage: "key set --tenant ID --provider P --key K    stores the key encrypted",
    flags: ["tenant", "provider", "key"],
    async run(flags) {
      const stored = await setKey({
        ctx: await asOperatorOf(flags),
        input: { provider: required(flags, "provider"), key: required(flags, "key") },
      });
      return `${stored.provider} key stored (…${stored.last4})`;
    },
  },
  "keys rotate": {
    usage:
      "keys rotate                                  re-encrypts provider keys under the newest SEARCHMUX_SECRET_KEY",
    flags: [],
    async run() {
      const result = await rotateKeys({ ctx: await systemContext(operator) });
      return `rotated ${result.rotated} keys to version ${result.keyVersion}; ${result.failed} undecryptable; ${result.remaining} remaining`;
    },
  },
  "budget set": {
    usage:
      "budget set --tenant ID --provider P|* --metric requests|usd --period day|month|lifetime --limit N [--soft N] [--anchor-day D]",
    flags: ["tenant", "provider", "metric", "period", "limit", "soft", "anchor-day"],
    async run(flags) {
      const budget = await setBudget({
        ctx: await asOperatorOf(flags),
        input: {
          provider: required(flags, "provider"),
          metric: required(flags, "metric") as "requests" | "usd",
          period: required(flags, "period") as "day" | "month" | "lifetime",
          limit: number(flags, "limit") ?? Number.NaN,
          soft: number(flags, "soft"),
          anchorDay: number(flags, "anchor-day"),
        },
      });
      return `budget ${budget.id}: ${budget.provider} ${budget.metric} per ${budget.period} ≤ ${budget.limit}`;
    },
  },
  usage: {
    usage: "usage --tenant ID [--json]                   budgets, spend and free tiers",
    flags: ["tenant", "json"],
    booleans: ["json"],
    async run(flags) {
      const status = await listBudgets({ ctx: await asOperatorOf(flags) });
      return flags.json === undefined ? formatUsage(status) : JSON.stringify(status, null, 2);
    },
  },
  "providers verify": {
    usage:
      "providers verify [--provider P] [--json]     one cheapest real call per configured provider, on the operator's keys",
    flags: ["provider", "json"],
    booleans: ["json"],
    async run(flags) {
      let verification: Awaited<ReturnType<typeof verifyProviders>>;
      try {
        verification = await verifyProviders({
          ctx: operatorContext(process.env, "cli"),
          input: { provider: flags.provider },
        });
      } catch (error) {
        // A provider that is unknown, or not configured here, is a usage error: nothing was called.
        if (error instanceof ServiceError && ["not_found", "no_provider_configured"].includes(error.code))
          return { stdout: "", stderr: `error: ${error.message}`, exitCode: 2 };
        throw error;
      }
      const stdout =
        flags.json === undefined ? formatVerification(verification) : JSON.stringify(verification, null, 2);
      if (verification.failed.length === 0) return stdout;
      return { stdout, stderr: `failing: ${verification.failed.join(", ")}`, exitCode: 1 };
    },
  },
  prices: {
    usage:
      "prices [--json]                              the price table calls are charged at, overrides marked",
    flags: ["json"],
    booleans: ["json"],
    async run(flags) {
      const prices = listPrices({ ctx: operatorContext(process.env, "cli") });
      return flags.json === undefined ? formatPrices(prices) : JSON.stringify(prices, null, 2);
    },
  },
  "traces prune": {
    usage: "traces prune                                 deletes traces older than each tenant's retention",
    flags: [],
    async run() {
      return `deleted ${await pruneTraces({ ctx: await platform() })} traces and research jobs`;
    },
  },
  "reservations sweep": {
    usage: "reservations sweep                           refunds reservations of calls that never settled",
    flags: [],
    async run() {
      return `released ${await sweepExpiredReservations(await platform())} reservations`;
    },
  },
  search: shortToolCommand(tools.web_search, {
    usage:
      'search "query" [--providers a,b] [--max N] [--mode auto|fanout|budget|single] [--timeout MS] [--topic general|news] [--language de] [--queries "q1,q2" [--merge]]',
    flags: ["providers", "max", "mode", "timeout", "topic", "language", "queries", "merge"],
    booleans: ["merge"],
    input: (flags, positionals) => ({
      // --queries (comma-separated) instead of the positional query; --input of `tool web_search` for commas.
      ...(flags.queries === undefined
        ? { query: positionals.join(" ") }
        : { queries: list(flags.queries), merge: flags.merge === undefined ? undefined : true }),
      providers: list(flags.providers),
      max_results: number(flags, "max"),
      mode: flags.mode,
      timeout_ms: number(flags, "timeout"),
      topic: flags.topic,
      language: flags.language,
    }),
  }),
  answer: shortToolCommand(tools.answer, {
    usage: 'answer "question" [--providers a,b] [--timeout MS]',
    flags: ["providers", "timeout"],
    input: (flags, positionals) => ({
      query: positionals.join(" "),
      providers: list(flags.providers),
      timeout_ms: number(flags, "timeout"),
    }),
  }),
  papers: shortToolCommand(tools.paper_search, {
    usage:
      'papers "query" [--providers a,b] [--max N] [--sort relevance|date] [--from YEAR] [--to YEAR] [--open-access]',
    flags: ["providers", "max", "sort", "from", "to", "open-access"],
    booleans: ["open-access"],
    input: (flags, positionals) => ({
      query: positionals.join(" "),
      providers: list(flags.providers),
      max_results: number(flags, "max"),
      sort: flags.sort,
      year_from: number(flags, "from"),
      year_to: number(flags, "to"),
      open_access: flags["open-access"] !== undefined,
    }),
  }),
  fetch: shortToolCommand(tools.fetch, {
    usage:
      "fetch URL [--format markdown|text|html] [--max-chars N] [--providers a,b] [--skip a,b] [--timeout MS]",
    flags: ["format", "max-chars", "providers", "skip", "timeout"],
    input: (flags, positionals) => ({
      url: positionals[0] ?? "",
      format: flags.format,
      max_chars: number(flags, "max-chars"),
      providers: list(flags.providers),
      skip_providers: list(flags.skip),
      timeout_ms: number(flags, "timeout"),
    }),
  }),
  "paper text": {
    usage:
      "paper text [--tenant ID] (--arxiv ID | --pdf URL) [--max-chars N] [--json]   a paper's full text from its PDF",
    flags: ["tenant", "arxiv", "pdf", "max-chars", "json"],
    booleans: ["json"],
    async run(flags) {
      const result = await paperFullText({
        ctx: await callerOf(flags),
        input: { arxiv_id: flags.arxiv, pdf_url: flags.pdf, max_chars: number(flags, "max-chars") },
      });
      return printed(flags, toFetchResponse(result), formatFetch);
    },
  },
  ...TOOL_COMMANDS,
};
