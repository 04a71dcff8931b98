/**
 * clients/python/searchmux.py, written from the client operations (./operations.ts) into the hand-written
 * runtime (./python-runtime.py, at its `# --- generated ---` line): a TypedDict per object the API answers
 * or takes, and one method per operation on `_Operations`, which the runtime's `Searchmux` extends.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ClientOperation, JsonSchema } from "./operations";

const RUNTIME = path.join(import.meta.dirname, "python-runtime.py");
const MARKER = "# --- generated ---\n";

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

const pascal = (name: string) =>
  name.replace(/(?:^|[_\-\s]+)(\w)/g, (_, letter: string) => letter.toUpperCase());
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** A field's name as a Python parameter: keywords (`async`, `from`) get a trailing underscore. */
const parameterName = (field: string) => (PYTHON_KEYWORDS.has(field) ? `${field}_` : field);

/** A JSON value as a Python literal. */
function literal(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return JSON.stringify(value);
}

/** One line of documentation, safe inside a comment or a docstring. */
const docLine = (text: unknown) =>
  typeof text === "string"
    ? text.replace(/\s+/g, " ").replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"')
    : "";

/** Python annotations for JSON Schemas, and the TypedDict classes they need, each written once. */
class PythonTypes {
  readonly classes: string[] = [];
  private readonly byShape = new Map<string, string>();
  private readonly names = new Set<string>();

  constructor(private readonly components: Record<string, JsonSchema>) {}

  /** The annotation of `schema`; `hint` names a class it needs. */
  annotation(schema: JsonSchema, hint: string): string {
    if (typeof schema.$ref === "string") {
      const name = schema.$ref.split("/").at(-1) ?? hint;
      return this.annotation(this.components[name] ?? {}, name);
    }
    if ("const" in schema) return `Literal[${literal(schema.const)}]`;
    if (Array.isArray(schema.enum)) return `Literal[${schema.enum.map(literal).join(", ")}]`;
    const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(members)) {
      return this.union(members.map((member, i) => this.annotation(member, memberHint(member, hint, i))));
    }
    if (Array.isArray(schema.type)) {
      return this.union(schema.type.map((type) => this.annotation({ ...schema, type }, hint)));
    }
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `List[${schema.items ? this.annotation(schema.items as JsonSchema, `${hint}Item`) : "Any"}]`;
      case "object":
        return this.object(schema, hint);
      default:
        return "Any";
    }
  }

  private union(members: string[]): string {
    const unique = [...new Set(members)];
    if (unique.includes("Any")) return "Any";
    const present = unique.filter((member) => member !== "None");
    const inner = present.length === 1 ? (present[0] as string) : `Union[${present.join(", ")}]`;
    return present.length < unique.length ? `Optional[${inner}]` : inner;
  }

  private object(schema: JsonSchema, hint: string): string {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    if (Object.keys(properties).length === 0) {
      const values = schema.additionalProperties;
      return typeof values === "object" && values !== null
        ? `Dict[str, ${this.annotation(values as JsonSchema, `${hint}Value`)}]`
        : "Dict[str, Any]";
    }
    const shape = JSON.stringify(schema);
    const known = this.byShape.get(shape);
    if (known) return known;
    const name = this.claim(hint);
    const required = new Set((schema.required ?? []) as string[]);
    const fields = Object.entries(properties).map(([field, property]) => ({
      field,
      required: required.has(field),
      // A field named like its class (an estimate's `estimate`) would repeat the name.
      annotation: this.annotation(property, `${name}${pascal(field) === name ? "Detail" : pascal(field)}`),
      description: docLine(property.description),
    }));
    const body = (list: typeof fields) =>
      list.flatMap(({ field, annotation, description }) => [
        ...(description ? [`    #: ${description}`] : []),
        `    ${field}: ${annotation}`,
      ]);
    const mandatory = fields.filter((f) => f.required);
    const optional = fields.filter((f) => !f.required);
    const doc = docLine(schema.description);
    const docstring = doc ? [`    """${doc}"""`, ""] : [];
    if (fields.some(({ field }) => PYTHON_KEYWORDS.has(field))) {
      // A keyword cannot be a field in the class syntax; the functional one has no required keys before 3.11.
      const entries = fields.map(({ field, annotation }) => `"${field}": ${annotation}`).join(", ");
      this.classes.push(`${name} = TypedDict("${name}", {${entries}}, total=False)`);
    } else if (optional.length === 0) {
      this.classes.push([`class ${name}(TypedDict):`, ...docstring, ...body(mandatory)].join("\n"));
    } else if (mandatory.length === 0) {
      this.classes.push(
        [`class ${name}(TypedDict, total=False):`, ...docstring, ...body(optional)].join("\n"),
      );
    } else {
      this.classes.push([`class _${name}Required(TypedDict):`, ...body(mandatory)].join("\n"));
      this.classes.push(
        [`class ${name}(_${name}Required, total=False):`, ...docstring, ...body(optional)].join("\n"),
      );
    }
    this.byShape.set(shape, name);
    return name;
  }

  private claim(hint: string): string {
    let name = hint;
    for (let n = 2; this.names.has(name); n++) name = `${hint}${n}`;
    this.names.add(name);
    return name;
  }
}

/** A union member's class name: the first takes the union's; one of a single field is named after it (`Estimate`). */
function memberHint(member: JsonSchema, hint: string, index: number): string {
  if (index === 0) return hint;
  const keys = Object.keys((member.properties ?? {}) as object);
  return keys.length === 1 ? pascal(keys[0] as string) : `${hint}${index + 1}`;
}

interface Parameter {
  field: string;
  name: string;
  annotation: string;
  required: boolean;
  description: string;
  where: "path" | "query" | "body";
}

function parameters(op: ClientOperation, types: PythonTypes): Parameter[] {
  const hint = pascal(op.id);
  const fromObject = (schema: JsonSchema | undefined, where: "query" | "body"): Parameter[] => {
    if (!schema) return [];
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    return Object.entries(properties).map(([field, property]) => ({
      field,
      name: parameterName(field),
      annotation: types.annotation(property, `${hint}${pascal(field)}`),
      required: required.has(field),
      description: docLine(property.description),
      where,
    }));
  };
  return [
    ...op.pathParams.map(
      (field): Parameter => ({
        field,
        name: parameterName(field),
        annotation: "str",
        required: true,
        description: "",
        where: "path",
      }),
    ),
    ...fromObject(op.query, "query"),
    ...fromObject(op.body, "body"),
  ];
}

const mapping = (list: Parameter[]) => `{${list.map((p) => `"${p.field}": ${p.name}`).join(", ")}}`;

function method(op: ClientOperation, types: PythonTypes): string {
  const params = parameters(op, types);
  const returns = types.annotation(op.response, `${pascal(op.id)}Response`);
  const mandatory = params.filter((p) => p.required);
  const optional = params.filter((p) => !p.required);
  const signature = [
    "self",
    ...mandatory.map((p) => `${p.name}: ${p.annotation}`),
    ...(optional.length > 0 ? ["*"] : []),
    ...optional.map(
      (p) =>
        `${p.name}: ${p.annotation.startsWith("Optional[") ? p.annotation : `Optional[${p.annotation}]`} = None`,
    ),
  ];
  const described = params.filter((p) => p.description);
  const doc = [
    `        """${docLine(op.summary)}.`,
    "",
    `        ${op.method.toUpperCase()} ${op.path}${op.description ? ` (${docLine(op.description)})` : ""}`,
    ...(described.length > 0
      ? ["", "        Args:", ...described.map((p) => `            ${p.name}: ${p.description}`)]
      : []),
    '        """',
  ];
  const byPlace = (where: Parameter["where"]) => params.filter((p) => p.where === where);
  const call = [
    `"${op.method.toUpperCase()}"`,
    `"${op.path}"`,
    ...(op.pathParams.length > 0 ? [`path_params=${mapping(byPlace("path"))}`] : []),
    ...(op.query ? [`query=${mapping(byPlace("query"))}`] : []),
    ...(op.body ? [`body=${mapping(byPlace("body"))}`] : []),
  ];
  return [
    `    def ${snake(op.id)}(`,
    ...signature.map((part) => `        ${part},`),
    `    ) -> ${returns}:`,
    ...doc,
    `        return self._call(${call.join(", ")})`,
  ].join("\n");
}

/** The whole module for `operations`; `components` resolves `$ref`s; `version` goes into its User-Agent. */
export function pythonClient(
  operations: readonly ClientOperation[],
  { components, version }: { components: Record<string, JsonSchema>; version: string },
): string {
  const types = new PythonTypes(components);
  const methods = operations.map((op) => method(op, types));
  const generated = [
    ...types.classes,
    [
      "class _Operations(_Transport):",
      '    """One method per /api/v1 operation, named after its operationId."""',
      "",
      methods.join("\n\n"),
    ].join("\n"),
  ].join("\n\n\n");
  const runtime = readFileSync(RUNTIME, "utf8").replace("__VERSION__", version);
  const [head, tail] = runtime.split(MARKER);
  if (tail === undefined) throw new Error(`${RUNTIME} lacks the line ${MARKER.trim()}`);
  return `${head}${generated}\n\n\n${tail}`;
}
