/**
 * A ZIP archive (the container of DOCX and PPTX) read defensively: the central directory is parsed
 * here, and only the entries asked for are inflated, one at a time, with fflate's streaming Inflate,
 * every declared byte counting against one budget. fflate's unzipSync is not used: it inflates into a
 * buffer of the declared size but keeps decoding past it, so an entry that lies about its size costs
 * CPU in proportion to its real (bomb) size. Here decoding stops as soon as an entry outgrows its
 * declared size, at most one chunk's worth (INFLATE_CHUNK × deflate's ~1,032:1 best ratio) later.
 *
 * Errors: ProviderError "too_large" (budget or entry count), "invalid_response" (not a ZIP, corrupt,
 * ZIP64, unknown compression), UnsupportedContent (encrypted entries).
 */
import { Inflate } from "fflate";
import { UnsupportedContent } from "@/lib/engine/fetch/errors";
import { ProviderError } from "@/lib/engine/shared/errors";

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY_SIZE = 22;
const MAX_ARCHIVE_COMMENT = 0xffff;
/** A size or offset that lives in a ZIP64 extra field instead. */
const ZIP64_SENTINEL = 0xffffffff;
const FLAG_ENCRYPTED = 0x1;
const STORED = 0;
const DEFLATED = 8;
/** Compressed bytes per Inflate push: bounds how far past a limit one push can decode (~4 MB). */
const INFLATE_CHUNK = 4096;

export interface ZipLimits {
  /** Total declared uncompressed size of the entries read. */
  maxBytes: number;
  maxEntries: number;
}

interface Entry {
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

const utf8 = new TextDecoder();

export class ZipArchive {
  private used = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly view: DataView,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly maxBytes: number,
  ) {}

  static open(bytes: Uint8Array, limits: ZipLimits): ZipArchive {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return new ZipArchive(bytes, view, readDirectory(view, limits.maxEntries), limits.maxBytes);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry decoded as UTF-8; undefined when the archive has no such entry. */
  text(name: string): string | undefined {
    const entry = this.entries.get(name);
    return entry === undefined ? undefined : utf8.decode(this.read(name, entry));
  }

  private read(name: string, entry: Entry): Uint8Array {
    if (entry.flags & FLAG_ENCRYPTED) throw new UnsupportedContent("application/zip", "encrypted entries");
    if (this.used + entry.size > this.maxBytes) {
      throw new ProviderError(
        "too_large",
        `document parts exceed the ${this.maxBytes}-byte decoded size cap (at ${name})`,
      );
    }
    this.used += entry.size;
    const data = this.dataOf(name, entry);
    if (entry.method === STORED) {
      if (data.length !== entry.size) throw corrupt(`${name} is not the size it declares`);
      return data;
    }
    if (entry.method !== DEFLATED) throw corrupt(`${name} uses compression method ${entry.method}`);
    return inflateExactly(data, entry.size, name);
  }

  private dataOf(name: string, entry: Entry): Uint8Array {
    const at = entry.localHeader;
    if (at + 30 > this.view.byteLength || this.view.getUint32(at, true) !== LOCAL_HEADER) {
      throw corrupt(`no local header for ${name}`);
    }
    const start = at + 30 + this.view.getUint16(at + 26, true) + this.view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt(`${name} runs past the end of the archive`);
    return this.bytes.subarray(start, end);
  }
}

function readDirectory(view: DataView, maxEntries: number): Map<string, Entry> {
  const end = findEndOfDirectory(view);
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (count > maxEntries) {
    throw new ProviderError("too_large", `archive has ${count} entries (at most ${maxEntries} are read)`);
  }
  if (offset === ZIP64_SENTINEL || size === ZIP64_SENTINEL) throw corrupt("ZIP64 archives are not supported");
  if (offset + size > end) throw corrupt("central directory out of bounds");

  const entries = new Map<string, Entry>();
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      throw corrupt("truncated central directory");
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > end) throw corrupt("truncated central directory");
    const entry: Entry = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeader: view.getUint32(at + 42, true),
    };
    const name = utf8.decode(new Uint8Array(view.buffer, view.byteOffset + at + 46, nameLength));
    const zip64 = [entry.compressedSize, entry.size, entry.localHeader].includes(ZIP64_SENTINEL);
    if (zip64) throw corrupt("ZIP64 archives are not supported");
    // Part names are unique in a valid package; a repeated name keeps its first entry.
    if (!entries.has(name)) entries.set(name, entry);
    at = next;
  }
  return entries;
}

/** The end-of-central-directory record: the last 22 bytes, or earlier when an archive comment follows. */
function findEndOfDirectory(view: DataView): number {
  const last = view.byteLength - END_OF_DIRECTORY_SIZE;
  const first = Math.max(0, last - MAX_ARCHIVE_COMMENT);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw corrupt("not a ZIP archive");
}

/** Inflates `data`, which must come out at exactly `size` bytes; stops early when it would not. */
function inflateExactly(data: Uint8Array, size: number, name: string): Uint8Array {
  const out = new Uint8Array(size);
  let written = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    if (overflow || written + chunk.length > size) {
      overflow = true;
      return;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < data.length && !overflow; at += INFLATE_CHUNK) {
      const end = Math.min(at + INFLATE_CHUNK, data.length);
      inflater.push(data.subarray(at, end), end === data.length);
    }
  } catch (error) {
    throw corrupt(`${name} does not inflate (${error instanceof Error ? error.message : "bad data"})`);
  }
  if (overflow) throw corrupt(`${name} inflates past the size it declares`);
  if (written !== size) throw corrupt(`${name} is shorter than it declares`);
  return out;
}

function corrupt(detail: string): ProviderError {
  return new ProviderError("invalid_response", `invalid document archive: ${detail}`);
}
