/**
 * The Open Packaging Conventions layer shared by DOCX and PPTX (ECMA-376 Part 2): parts are ZIP entries,
 * `<dir>/_rels/<name>.rels` lists a part's relationships (Id, Type, Target, TargetMode), the package's
 * own `_rels/.rels` points at the main part (officeDocument) and the document properties, and
 * `[Content_Types].xml` gives each part's content type (Override by part name, else Default by extension).
 * Relationship types are matched by their last segment, which the transitional and strict namespaces share.
 */
import { posix } from "node:path";
import { child, children, parseXml, textContent, type XmlElement } from "./xml";
import type { ZipArchive } from "./zip";

export interface Relationship {
  /** The last segment of the relationship type: "officeDocument", "slide", "hyperlink", "notesSlide", … */
  kind: string;
  /** A part name (no leading slash) for internal targets, the URL as written for external ones. */
  target: string;
  external: boolean;
}

/** A link's address: the target of an external relationship; a part of the package or an unknown id is none. */
export function externalTarget(
  relationships: ReadonlyMap<string, Relationship>,
  id: string | undefined,
): string | undefined {
  const relationship = id === undefined ? undefined : relationships.get(id);
  return relationship?.external ? relationship.target : undefined;
}

export interface DocumentProperties {
  title?: string;
  creator?: string;
  language?: string;
  /** Pages as the producing application last counted them (docProps/app.xml). */
  pages?: number;
}

const PACKAGE_ROOT = "";

export class OfficePackage {
  /** Every part's relationships are read once: each read counts against the archive's size budget. */
  private readonly relationshipsBySource = new Map<string, Map<string, Relationship>>();

  constructor(private readonly zip: ZipArchive) {}

  /** The parsed part, or undefined when the package has no such part (or no name was found for it). */
  part(name: string | undefined): XmlElement | undefined {
    if (name === undefined) return undefined;
    const xml = this.zip.text(name);
    return xml === undefined ? undefined : parseXml(xml, name);
  }

  /** Relationships of a part (PACKAGE_ROOT for the package's own), by Id. */
  relationships(source: string): ReadonlyMap<string, Relationship> {
    const cached = this.relationshipsBySource.get(source);
    if (cached !== undefined) return cached;
    const relationships = new Map<string, Relationship>();
    for (const element of children(this.part(relationshipsPart(source)), "Relationship")) {
      const { Id: id, Type: type, Target: target, TargetMode: mode } = element.attributes;
      if (!id || !type || target === undefined) continue;
      const external = mode === "External";
      relationships.set(id, {
        kind: type.slice(type.lastIndexOf("/") + 1),
        target: external ? target : resolveTarget(source, target),
        external,
      });
    }
    this.relationshipsBySource.set(source, relationships);
    return relationships;
  }

  /** The first internal target of a relationship kind. */
  related(source: string, kind: string): string | undefined {
    for (const relationship of this.relationships(source).values())
      if (relationship.kind === kind && !relationship.external) return relationship.target;
    return undefined;
  }

  /** The main part (word/document.xml, ppt/presentation.xml, …) and its content type. */
  mainPart(): { name: string; contentType: string } | undefined {
    const name = this.related(PACKAGE_ROOT, "officeDocument");
    if (name === undefined || !this.zip.has(name)) return undefined;
    return { name, contentType: this.contentType(name) ?? "" };
  }

  properties(): DocumentProperties {
    const core = this.part(this.related(PACKAGE_ROOT, "core-properties"));
    const app = this.part(this.related(PACKAGE_ROOT, "extended-properties"));
    const properties: DocumentProperties = {};
    const title = textContent(child(core, "dc:title")).trim();
    const creator = textContent(child(core, "dc:creator")).trim();
    const language = textContent(child(core, "dc:language")).trim();
    const pages = Number.parseInt(textContent(child(app, "Pages")), 10);
    if (title) properties.title = title;
    if (creator) properties.creator = creator;
    if (language) properties.language = language;
    if (pages > 0) properties.pages = pages;
    return properties;
  }

  private contentType(name: string): string | undefined {
    const types = this.part("[Content_Types].xml");
    const partName = `/${name}`.toLowerCase();
    const override = children(types, "Override").find(
      (element) => element.attributes.PartName?.toLowerCase() === partName,
    );
    if (override) return override.attributes.ContentType;
    const extension = posix.extname(name).slice(1).toLowerCase();
    return children(types, "Default").find(
      (element) => element.attributes.Extension?.toLowerCase() === extension,
    )?.attributes.ContentType;
  }
}

/** `word/document.xml` → `word/_rels/document.xml.rels`; the package root → `_rels/.rels`. */
function relationshipsPart(source: string): string {
  return posix.join(posix.dirname(source), "_rels", `${posix.basename(source)}.rels`);
}

/** A relative target resolves against the source part's folder; an absolute one against the package root. */
function resolveTarget(source: string, target: string): string {
  const decoded = safeDecode(target);
  const joined = decoded.startsWith("/") ? decoded : posix.join(posix.dirname(source), decoded);
  return posix.normalize(joined).replace(/^(\.\.\/|\/)+/, "");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
