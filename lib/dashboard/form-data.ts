/** Reading server-action FormData into verb input: strings trimmed, blanks as undefined. */

export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A number field; text that is not a number stays NaN so the verb's schema reports it on the field. */
export function formNumber(form: FormData, name: string): number | undefined {
  const text = formText(form, name);
  return text === undefined ? undefined : Number(text);
}

export function formList(form: FormData, name: string): string[] {
  return form.getAll(name).filter((v): v is string => typeof v === "string" && v !== "");
}

/** A checkbox: on when the form carries it (an unchecked box sends nothing). */
export const formFlag = (form: FormData, name: string): boolean => form.has(name);
