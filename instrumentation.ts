/** Next.js calls this once per server instance; the work itself is Node-only (lib/services/background.ts). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundTasks } = await import("./lib/services/background");
  await startBackgroundTasks();
}
