/**
 * The areas whose changes the audit log records (the `<area>.` of its actions), for the
 * page's filter (a module of its own: the filter form in the browser reads it too).
 */
export const AUDIT_AREAS = [
  ["token.", "Tokens"],
  ["key.", "Provider keys"],
  ["budget.", "Budgets"],
  ["member.", "Members"],
  ["invitation.", "Invitations"],
  ["oauth.", "Connected apps"],
  ["lens.", "Lenses"],
  ["tenant.", "Workspace"],
] as const;
