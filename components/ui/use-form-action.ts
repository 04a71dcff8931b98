"use client";

import { type FormEvent, startTransition, useActionState, useEffect, useRef } from "react";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

/**
 * Runs a server action from a form's submit event instead of its `action` prop, because React resets a
 * form after an `action` (and Radix controls with it), which would wipe what the user typed when the
 * server points at a field error. `resetOnSuccess` clears the form once the action succeeded.
 */
export function useFormAction<T>(
  action: (previous: ActionState<T>, form: FormData) => Promise<ActionState<T>>,
  { resetOnSuccess = false }: { resetOnSuccess?: boolean } = {},
) {
  const [state, dispatch, pending] = useActionState(action, IDLE as ActionState<T>);
  const ref = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (resetOnSuccess && state.status === "success") ref.current?.reset();
  }, [state, resetOnSuccess]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => dispatch(data));
  }

  return { state, pending, form: { ref, onSubmit, noValidate: true } };
}
