/** The operator CLI's commands; each parses its flags and calls a service verb. */

import { sweepExpiredReservations } from "@/lib/pipeline/budgets/admission";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { platform, systemContext } from "@/lib/pipeline/platform";
import { answer } from "@/lib/services/answer/answer";
import { answerAsOperator } from "@/lib/services/answer/answer-as-operator";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { fetchAsOperator } from "@/lib/services/fetch/fetch-as-operator";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { rotateKeys } from "@/lib/services/keys/rotate-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { paperFullText } from "@/lib/services/papers/paper-full-text";
import { paperSearch } from "@/lib/services/papers/paper-search";
import { papersAsOperator } from "@/lib/services/papers/papers-as-operator";
import { searchAsOperator } from "@/lib/services/search/search-as-operator";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { pruneTraces } from "@/lib/services/traces/prune-traces";
import { formatAnswerResult } from "@/scripts/format-answer";
import { formatFetchResult } from "@/scripts/format-fetch";
import { formatPaperResult } from "@/scripts/format-papers";
import { formatSearchResult } from "@/scripts/format-search";
import { asOperatorOf, type CliCommand, type Flags, list, number, operator, required } from "./command";
import { formatUsage } from "./format-usage";
import { TOOL_COMMANDS } from "./tool-commands";

/**
 * A tool command (search, answer, papers, fetch): with --tenant it runs as that tenant (its keys,
 * budgets and cache), without it with the operator's providers only; --json prints the raw result.
 */
function toolCommand<I, R>(spec: {
  usage: string;
  flags: string[];
  booleans?: string[];
  input(flags: Flags, positionals: string[]): I;
  tenant(ctx: TenantContext, input: I & { no_cache: boolean }): Promise<R>;
  operator(env: NodeJS.ProcessEnv, input: I): Promise<R>;
  format(result: R): string;
}): CliCommand {
  return {
    usage: `${spec.usage} [--tenant ID] [--no-cache] [--json]`,
    flags: [...spec.flags, "tenant", "no-cache", "json"],
    booleans: [...(spec.booleans ?? []), "no-cache", "json"],
    positionals: true,
    async run(flags, positionals) {
      const input = spec.input(flags, positionals);
      const result = flags.tenant
        ? await spec.tenant(await asOperatorOf(flags), {
            ...input,
            no_cache: flags["no-cache"] !== undefined,
          })
        : await spec.operator(process.env, input);
      return flags.json === undefined ? spec.format(result) : JSON.stringify(result, null, 2);
    },
  };
}

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
  search: toolCommand({
    usage: 'search "query" [--providers a,b] [--max N] [--mode fanout|budget|single] [--timeout MS]',
    flags: ["providers", "max", "mode", "timeout"],
    input: (flags, positionals) => ({
      query: positionals.join(" "),
      providers: list(flags.providers),
      max_results: number(flags, "max"),
      mode: flags.mode as "fanout" | "budget" | "single" | undefined,
      timeout_ms: number(flags, "timeout"),
    }),
    tenant: (ctx, input) => webSearch({ ctx, input }),
    operator: (env, input) => searchAsOperator({ ctx: { env }, input }),
    format: formatSearchResult,
  }),
  answer: toolCommand({
    usage: 'answer "question" [--providers a,b] [--timeout MS]',
    flags: ["providers", "timeout"],
    input: (flags, positionals) => ({
      query: positionals.join(" "),
      providers: list(flags.providers),
      timeout_ms: number(flags, "timeout"),
    }),
    tenant: (ctx, input) => answer({ ctx, input }),
    operator: (env, input) => answerAsOperator({ ctx: { env }, input }),
    format: formatAnswerResult,
  }),
  papers: toolCommand({
    usage:
      'papers "query" [--providers a,b] [--max N] [--sort relevance|date] [--from YEAR] [--to YEAR] [--open-access]',
    flags: ["providers", "max", "sort", "from", "to", "open-access"],
    booleans: ["open-access"],
    input: (flags, positionals) => ({
      query: positionals.join(" "),
      providers: list(flags.providers),
      max_results: number(flags, "max"),
      sort: flags.sort as "relevance" | "date" | undefined,
      year_from: number(flags, "from"),
      year_to: number(flags, "to"),
      open_access: flags["open-access"] !== undefined,
    }),
    tenant: (ctx, input) => paperSearch({ ctx, input }),
    operator: (env, input) => papersAsOperator({ ctx: { env }, input }),
    format: formatPaperResult,
  }),
  fetch: toolCommand({
    usage:
      "fetch URL [--format markdown|text|html] [--max-chars N] [--providers a,b] [--skip a,b] [--timeout MS]",
    flags: ["format", "max-chars", "providers", "skip", "timeout"],
    input: (flags, positionals) => ({
      url: positionals[0] ?? "",
      format: flags.format as "markdown" | "text" | "html" | undefined,
      max_chars: number(flags, "max-chars"),
      providers: list(flags.providers),
      skip_providers: list(flags.skip),
      timeout_ms: number(flags, "timeout"),
    }),
    tenant: (ctx, input) => fetchPage({ ctx, input }),
    operator: (env, input) => fetchAsOperator({ ctx: { env }, input }),
    format: formatFetchResult,
  }),
  "paper text": {
    usage:
      "paper text --tenant ID (--arxiv ID | --pdf URL) [--max-chars N] [--json]   a paper's full text from its PDF",
    flags: ["tenant", "arxiv", "pdf", "max-chars", "json"],
    booleans: ["json"],
    async run(flags) {
      const result = await paperFullText({
        ctx: await asOperatorOf(flags),
        input: { arxiv_id: flags.arxiv, pdf_url: flags.pdf, max_chars: number(flags, "max-chars") },
      });
      return flags.json === undefined ? formatFetchResult(result) : JSON.stringify(result, null, 2);
    },
  },
  ...TOOL_COMMANDS,
};
