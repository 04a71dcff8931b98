/**
 * `npm run build:client`: regenerates both clients from the OpenAPI document the app serves (built from the
 * code, no server needed): clients/typescript/src/{schema,operations}.ts and clients/python/searchmux.py;
 * then builds the TypeScript package (clients/typescript/dist) and packs it with `npm pack` into
 * clients/typescript/searchmux-client-<version>.tgz.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { generatedClientFiles } from "./clients/generated-files";
import { buildTypescriptClient, TYPESCRIPT_CLIENT_DIR } from "./clients/typescript-client";

const run = promisify(execFile);

for (const [file, contents] of Object.entries(await generatedClientFiles())) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, contents);
  console.log(`wrote ${file}`);
}
await buildTypescriptClient(TYPESCRIPT_CLIENT_DIR);
const { stdout } = await run("npm", ["pack", "--ignore-scripts"], { cwd: TYPESCRIPT_CLIENT_DIR });
console.log(`packed ${path.join(TYPESCRIPT_CLIENT_DIR, stdout.trim().split("\n").at(-1) ?? "")}`);
