/**
 * What a dashboard server action answers (`useActionState`): an outcome, a message for the form, errors
 * per field, and any result data.
 */
export interface ActionState<T = undefined> {
  status: "idle" | "success" | "error";
  message?: string;
  fieldErrors?: Partial<Record<string, string>>;
  data?: T;
}

export const IDLE: ActionState<never> = { status: "idle" };
