/**
 * Memory of one process, read from /proc (Linux): the resident set now (VmRSS) and its high-water mark
 * (VmHWM), which `resetPeakRss` restarts so a peak can be taken per scenario. Also finds the process
 * that listens on a TCP port, so a server started elsewhere can be measured too — never a process group
 * (which would add npm, the build and the embedded database).
 */
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";

export interface RssReading {
  rssMb: number;
  peakMb: number;
}

const kbField = (status: string, name: string) =>
  Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);

export function readRss(pid: number): RssReading {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return { rssMb: kbField(status, "VmRSS") / 1024, peakMb: kbField(status, "VmHWM") / 1024 };
}

/** Restarts VmHWM at the current RSS (writing 5 to clear_refs); false when not permitted. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * The peak RSS of `pid` while `work` runs: VmHWM after a reset when the kernel allows it, else the
 * highest VmRSS sampled every 50 ms.
 */
export async function peakRssDuring<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; peakMb: number }> {
  const resettable = resetPeakRss(pid);
  let sampled = readRss(pid).rssMb;
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, readRss(pid).rssMb);
    } catch {
      // the process is gone; the caller learns it from `work`
    }
  }, 50);
  try {
    const result = await work();
    const { rssMb, peakMb } = readRss(pid);
    return { result, peakMb: Math.max(resettable ? peakMb : 0, sampled, rssMb) };
  } finally {
    clearInterval(sampler);
  }
}

/** Inode of the socket listening on `port` (IPv4 or IPv6), from /proc/net/tcp*. */
function listeningInode(port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let rows: string[];
    try {
      rows = readFileSync(table, "utf8").trim().split("\n").slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      const [, local = "", , state, , , , , , inode] = row.trim().split(/\s+/);
      if (state === "0A" && local.endsWith(`:${hexPort}`) && inode) return inode;
    }
  }
  return undefined;
}

/** The pid of the process listening on `port`, or undefined. */
export function pidListeningOn(port: number): number | undefined {
  const inode = listeningInode(port);
  if (inode === undefined) return undefined;
  const target = `socket:[${inode}]`;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === target) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
