/**
 * The benchmark's output: a table on stdout (each figure with its targets, met or missed) and
 * bench/results/<date>.json with the machine it ran on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ScenarioResult } from "@/bench/scenarios/scenario";
import { checkTargets, type TargetCheck } from "@/bench/targets";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  /** 1-minute load average when the run started and ended (other work on the machine skews figures). */
  loadAverage: { start: number; end: number };
}

export function machine(loadAtStart: number): Machine {
  return {
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverage: { start: loadAtStart, end: os.loadavg()[0] ?? 0 },
  };
}

const ms = (value: number) => (Number.isNaN(value) ? "–" : value < 10 ? value.toFixed(2) : value.toFixed(0));
const targetText = (checks: TargetCheck[]) =>
  checks.map((c) => `${c.label}: ${c.met ? "met" : "MISSED"}`).join("; ") || "–";

export function printTable(results: readonly ScenarioResult[], about: Machine): void {
  const header = [
    "scenario",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "req/s",
    "errors",
    "peak RSS MB",
    "round trips/call db+kv",
    "targets",
  ];
  const rows = results.map((r) => [
    r.title,
    ms(r.latencyMs.p50),
    ms(r.latencyMs.p95),
    ms(r.latencyMs.p99),
    r.requestsPerSecond === undefined ? "–" : r.requestsPerSecond.toFixed(0),
    String(r.errors),
    r.peakRssMb === undefined ? "–" : `${r.peakRssMb.toFixed(0)} (${r.rssOf})`,
    r.roundTripsPerCall
      ? `${r.roundTripsPerCall.database.toFixed(1)} + ${r.roundTripsPerCall.kv.toFixed(1)}`
      : "–",
    targetText(checkTargets(r)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  console.log("\nwhat each latency column measures, and ratios to baselines of this run:");
  for (const r of results) {
    const extra = [r.ratio, r.notes].filter(Boolean).join("; ");
    console.log(`  ${r.title}: ${r.figure}${extra ? ` — ${extra}` : ""}`);
  }
  console.log(
    `\nmachine: ${about.cpu}, ${about.cores} cores, ${about.memoryGb} GB, ${about.os}, node ${about.node}, ` +
      `load average ${about.loadAverage.start.toFixed(1)} → ${about.loadAverage.end.toFixed(1)}`,
  );
}

/** Writes bench/results/<date>[-<label>].json: a label keeps the runs of one day apart (database modes). */
export function writeResults(
  results: readonly ScenarioResult[],
  about: Machine,
  config: object,
  label?: string,
  /** Figures beside the scenarios' rows (the tool list's size). */
  extra: object = {},
): string {
  const dir = path.join(import.meta.dirname, "..", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}${label ? `-${label}` : ""}.json`);
  const report = {
    date: new Date().toISOString(),
    machine: about,
    config,
    results: results.map((r) => ({ ...r, targets: checkTargets(r) })),
    ...extra,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}
