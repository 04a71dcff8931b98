/**
 * Hostile and broken archives: a zip bomb (honest and lying headers), too many entries, truncated and
 * garbled archives, encrypted documents. Each is refused quickly with a clear reason, never a crash or
 * a hang.
 */
import { Inflate, strToU8 } from "fflate";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { UnsupportedContent } from "@/lib/engine/fetch/errors";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import { ProviderError } from "@/lib/engine/shared/errors";
import { docx, parts, wp, zipParts } from "./documents-fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const MiB = 1024 * 1024;

async function refusal(body: Buffer, maxBytes = 4 * MiB, contentType = DOCX) {
  const error = await documentFromBody({
    body,
    contentType,
    url: "https://files.example/x.docx",
    maxBytes,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return error as ProviderError;
}

/** Compressed bytes handed to the inflater while `work` runs. */
async function inflatedInput<T>(work: () => Promise<T>): Promise<{ result: T; bytesIn: number }> {
  const push = vi.spyOn(Inflate.prototype, "push");
  try {
    const result = await work();
    return { result, bytesIn: push.mock.calls.reduce((sum, [chunk]) => sum + chunk.length, 0) };
  } finally {
    push.mockRestore();
  }
}

/** A valid document whose body part is `size` bytes, nearly all spaces (deflate: ~1,000:1). */
function bombDocument(size: number): Buffer {
  const xml = parts({ body: wp("Innocent text.") })["word/document.xml"] as string;
  const body = new Uint8Array(size).fill(0x20);
  const cut = xml.indexOf("<w:sectPr/>");
  body.set(strToU8(xml.slice(0, cut)));
  body.set(strToU8(xml.slice(cut)), size - (xml.length - cut));
  return zipParts({ ...parts({ body: "" }), "word/document.xml": body });
}

/** Rewrites an entry's declared uncompressed size in the central directory (and its local header). */
function lieAboutSize(archive: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(archive);
  for (let at = copy.lastIndexOf(name); at >= 0; at = copy.lastIndexOf(name, at - 1)) {
    if (copy.readUInt32LE(at - 46) === 0x02014b50) copy.writeUInt32LE(size, at - 46 + 24);
    else if (copy.readUInt32LE(at - 30) === 0x04034b50) copy.writeUInt32LE(size, at - 30 + 22);
  }
  return copy;
}

describe("zip bombs", () => {
  const BOMB_SIZE = 32 * MiB;
  let bomb: Buffer;
  beforeAll(() => {
    bomb = bombDocument(BOMB_SIZE);
  });

  it("refuses parts larger than the decoded size cap before inflating them", async () => {
    expect(bomb.length).toBeLessThan(MiB);
    // Garbage in place of the compressed body: had it been inflated, the refusal would say so.
    const uninflatable = Buffer.from(bomb);
    const name = uninflatable.indexOf("word/document.xml") + "word/document.xml".length;
    uninflatable.fill(0xff, name, name + 64);
    for (const archive of [bomb, uninflatable]) {
      const error = await refusal(archive);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.reason).toBe("too_large");
      expect(error.message).toBe(
        `document parts exceed the ${4 * MiB}-byte decoded size cap (at word/document.xml)`,
      );
    }
  });

  it("stops inflating an entry that lies about its size", async () => {
    const liar = lieAboutSize(bomb, "word/document.xml", 1_000);
    const { result: error, bytesIn } = await inflatedInput(() => refusal(liar, BOMB_SIZE));
    expect(error.reason).toBe("invalid_response");
    expect(error.message).toBe(
      "invalid document archive: word/document.xml inflates past the size it declares",
    );
    // Decoding stops at the first 4 KB input chunk that inflates past the declared size (a few MB of output),
    // whatever the real size: of the body's ~32 KB compressed, one chunk went in (the rest is the small parts).
    expect(liar.length).toBeGreaterThan(8 * 4096);
    expect(bytesIn).toBeLessThan(2 * 4096);
  });

  it("refuses an archive with too many entries", async () => {
    const crowd = zipParts({
      ...parts({ body: wp("Text.") }),
      ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`media/${i}.bin`, ""])),
    });
    const error = await refusal(crowd);
    expect(error.reason).toBe("too_large");
    expect(error.message).toBe("archive has 10006 entries (at most 10000 are read)");
  });
});

describe("broken and encrypted archives", () => {
  const valid = docx({ body: wp("Some text.") });

  it.each([
    [
      "a truncated archive",
      valid.subarray(0, valid.length - 40),
      "invalid document archive: not a ZIP archive",
    ],
    ["random bytes", Buffer.alloc(2_000, 7), "invalid document archive: not a ZIP archive"],
    ["an empty body", Buffer.alloc(0), "invalid document archive: not a ZIP archive"],
  ])("refuses %s", async (_name, body, message) => {
    const error = await refusal(body);
    expect(error.reason).toBe("invalid_response");
    expect(error.message).toBe(message);
  });

  it("refuses an archive whose compressed data is garbage", async () => {
    const garbled = Buffer.from(valid);
    const name = garbled.indexOf("word/document.xml");
    // Overwrite the compressed data right after the first local header's name.
    garbled.fill(0xff, name + "word/document.xml".length, name + "word/document.xml".length + 64);
    const error = await refusal(garbled);
    expect(error.reason).toBe("invalid_response");
    expect(error.message).toMatch(/^invalid document archive: word\/document\.xml does not inflate/);
  });

  it.each([
    ["has no XML", "not xml at all", "no root element"],
    ["nests too deeply", "<w:p>".repeat(500), "Maximum nested tags exceeded"],
  ])("refuses a part that %s", async (_name, xml, detail) => {
    const broken = zipParts({ ...parts({ body: "" }), "word/document.xml": xml });
    const error = await refusal(broken);
    expect(error.reason).toBe("invalid_response");
    expect(error.message).toBe(`invalid document: word/document.xml could not be parsed (${detail})`);
  });

  it("refuses an encrypted document (an OLE compound file) as unsupported", async () => {
    const compound = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(1_000)]);
    const error = await refusal(compound);
    expect(error).toBeInstanceOf(UnsupportedContent);
    expect(error.message).toBe(
      `unsupported content type: ${DOCX} (an encrypted Office document or a legacy binary .doc/.ppt/.xls file)`,
    );
  });

  it("refuses ZIP-level encryption as unsupported", async () => {
    const encrypted = Buffer.from(valid);
    for (let at = encrypted.indexOf("PK\x01\x02"); at >= 0; at = encrypted.indexOf("PK\x01\x02", at + 4))
      encrypted.writeUInt16LE(encrypted.readUInt16LE(at + 8) | 1, at + 8);
    const error = await refusal(encrypted);
    expect(error).toBeInstanceOf(UnsupportedContent);
    expect(error.message).toBe("unsupported content type: application/zip (encrypted entries)");
  });

  it("reports a damaged .docx sent as octet-stream as a damaged document", async () => {
    const error = await refusal(Buffer.from("not really a document"), MiB, "application/octet-stream");
    expect(error.message).toBe("invalid document archive: not a ZIP archive");
  });
});
