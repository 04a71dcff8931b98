// @ts-check
/**
 * `npm run audit:deps` (CI runs it): `npm audit` of what the server runs (package.json `dependencies`, not
 * the build and test tools), failing on any high or critical advisory and naming each. A registry that
 * refuses the audit endpoint (npm's bulk advisory API; some mirrors answer it 405) audits nothing: that is
 * said on stderr and passes, unless SEARCHMUX_AUDIT_REQUIRED=1 makes it a failure too. Point npm at a
 * registry that answers (`npm_config_registry`) to audit from such a machine.
 */
import { spawnSync } from "node:child_process";

const FAILING = new Set(["high", "critical"]);

const npm = spawnSync("npm", ["audit", "--omit=dev", "--json"], {
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});

/** @type {any} */
let report;
try {
  report = JSON.parse(npm.stdout);
} catch {
  console.error(`audit:deps: npm audit answered no report (exit ${npm.status})\n${npm.stderr.trim()}`);
  process.exit(1);
}

if (!report.auditReportVersion) {
  const why = report.statusCode ? `HTTP ${report.statusCode}` : (report.error?.summary ?? report.message);
  const refused = `audit:deps: the registry refused the audit endpoint (${why}); nothing was audited`;
  if (process.env.SEARCHMUX_AUDIT_REQUIRED === "1") {
    console.error(`${refused}, and SEARCHMUX_AUDIT_REQUIRED=1`);
    process.exit(1);
  }
  console.error(`${refused}. Set npm_config_registry to a registry that answers it to audit.`);
  process.exit(0);
}

/** @type {Array<[string, any]>} */
const entries = Object.entries(report.vulnerabilities ?? {});
const failing = entries.filter(([, vulnerability]) => FAILING.has(vulnerability.severity));
const counts = report.metadata?.vulnerabilities ?? {};
const audited = report.metadata?.dependencies?.prod ?? "?";
console.log(
  `audit:deps: ${audited} run-time packages; advisories: ${["critical", "high", "moderate", "low"]
    .map((level) => `${counts[level] ?? 0} ${level}`)
    .join(", ")}`,
);
for (const [name, vulnerability] of failing) {
  /** @type {string[]} */
  const advisories = vulnerability.via
    .filter((/** @type {any} */ via) => typeof via === "object")
    .map((/** @type {any} */ via) => `${via.title} (${via.url})`);
  console.error(
    `  ${vulnerability.severity} ${name} ${vulnerability.range}: ${advisories.join("; ") || "via a dependency"}`,
  );
}
process.exit(failing.length > 0 ? 1 : 0);
