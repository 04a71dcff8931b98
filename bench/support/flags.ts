/** `--name=value` command-line flags. */

export function stringFlag(name: string): string | undefined {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return flag?.slice(name.length + 3);
}

export function booleanFlag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

export function numberFlag(name: string, fallback: number): number {
  const raw = stringFlag(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
