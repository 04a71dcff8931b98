/** Exit codes of `searchmux mcp` besides 0: the remote refused or was unreachable; the configuration is wrong. */
export const EXIT_REFUSED = 1;
export const EXIT_CONFIGURATION = 2;

/** Why the bridge cannot start: the message for stderr and the process's exit code. */
export class BridgeRefused extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_REFUSED | typeof EXIT_CONFIGURATION,
  ) {
    super(message);
    this.name = "BridgeRefused";
  }
}
