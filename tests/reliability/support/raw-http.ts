/**
 * One HTTP request with nothing filled in by a client library: any Host header, any body size, a
 * declared or chunked length. For what fetch() will not send (a foreign Host) or hides.
 */
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}

export function rawRequest(url: string, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
    const headers: Record<string, string> = { ...request.headers };
    if (body && !request.chunked) headers["content-length"] = String(body.length);
    const req = http.request(url, { method: request.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    // A server that answers before reading the whole body may close the socket under our upload; the
    // answer it sent is what counts, so a write error after it is not a failure.
    req.on("error", reject);
    if (!body) return void req.end();
    if (!request.chunked) return void req.end(body);
    const CHUNK = 64 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        const more = req.write(body.subarray(offset, offset + CHUNK));
        offset += CHUNK;
        if (!more) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}
