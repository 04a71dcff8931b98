export interface ChecklistStep {
  title: string;
  body: string;
  href: string;
  action: string;
  done: boolean;
}

interface TokenFacts {
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

export const isLiveToken = (token: TokenFacts, now: Date) =>
  token.revokedAt === null && (token.expiresAt === null || token.expiresAt > now);

/**
 * The first-run steps and whether each is done. `tokens` is null for members, who cannot see tokens;
 * their steps point them at an admin instead.
 */
export function firstRunSteps(
  tokens: readonly TokenFacts[] | null,
  hasOwnKey: boolean,
  now: Date,
): ChecklistStep[] {
  const live = tokens?.filter((token) => isLiveToken(token, now)) ?? [];
  return [
    {
      title: "Create a token",
      body:
        tokens === null
          ? "Tokens are created by workspace admins; ask one for a token with the mcp scope."
          : "A token lets an agent use this workspace over MCP or REST. It is shown once.",
      href: "/dashboard/connect",
      action: tokens === null ? "See your MCP URL" : "Create a token",
      done: live.length > 0,
    },
    {
      title: "Add a provider key",
      body: "Keyless providers work already; a key for Tavily, Brave, Exa or another provider widens every search.",
      href: "/dashboard/keys",
      action: "Add a key",
      done: hasOwnKey,
    },
    {
      title: "Connect a client",
      body: "Paste the config for Claude Code, Cursor, VS Code or Claude Desktop; its first call ticks this off.",
      href: "/dashboard/connect#clients",
      action: "Copy a client config",
      done: live.some((token) => token.lastUsedAt !== null),
    },
  ];
}
