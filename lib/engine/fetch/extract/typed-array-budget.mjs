/**
 * Caps on the bytes a document worker allocates as ArrayBuffers and typed arrays: per allocation, and in
 * all (counted cumulatively, freed or not, which keeps the count simple and the cap strict).
 * pdf.js decodes every stream it reads into a Uint8Array that doubles as it grows, and that memory lives
 * outside the V8 heap, so a worker's resourceLimits do not bound it: a few KB of FlateDecode inflate to
 * gigabytes. Here the global constructors are replaced by proxies that count what each `new` asks for;
 * past a cap they call `onExceeded` (the worker tells its parent, which terminates it) and throw, in case
 * the parent is slower than the parser. A real document's streams stay far below both caps.
 *
 * Install it only in a worker, before the parser is loaded, so every reference the parser takes is a proxy.
 */
const CONSTRUCTORS = [
  "ArrayBuffer",
  "SharedArrayBuffer",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
];

/**
 * @param {{ maxBytes: number, maxSingleBytes: number }} caps
 * @param {(reason: string) => void} onExceeded
 */
export function capTypedArrayAllocations({ maxBytes, maxSingleBytes }, onExceeded) {
  let allocated = 0;
  const refuse = (reason) => {
    onExceeded(reason);
    throw new RangeError(`document worker: ${reason}`);
  };
  for (const name of CONSTRUCTORS) {
    const target = globalThis[name];
    const bytesPerElement = target.BYTES_PER_ELEMENT ?? 1;
    globalThis[name] = new Proxy(target, {
      construct(original, args, newTarget) {
        const bytes = elementsAllocated(args[0]) * bytesPerElement;
        allocated += bytes;
        if (bytes > maxSingleBytes) refuse(`one of its streams decodes to more than ${mib(maxSingleBytes)}`);
        if (allocated > maxBytes) refuse(`its streams decode to more than ${mib(maxBytes)} in all`);
        return Reflect.construct(original, args, newTarget);
      },
    });
  }
}

const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** A length, or the length of an array-like to copy; a view over an existing buffer allocates nothing. */
function elementsAllocated(first) {
  if (typeof first === "number") return Number.isFinite(first) ? Math.max(first, 0) : 0;
  if (typeof first !== "object" || first === null) return 0;
  if (first instanceof ArrayBuffer || first instanceof SharedArrayBuffer) return 0;
  return typeof first.length === "number" ? first.length : 0;
}
