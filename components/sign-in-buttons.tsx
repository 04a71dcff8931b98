"use client";

import { signIn } from "next-auth/react";

export interface SignInOption {
  id: string;
  label: string;
}

export function SignInButtons({ options, callbackUrl }: { options: SignInOption[]; callbackUrl: string }) {
  return (
    <div className="flex flex-col gap-3">
      {options.map((option) => (
        <button
          key={option.id}
          type="button"
          onClick={() => signIn(option.id, { callbackUrl })}
          className="rounded-md border border-zinc-300 px-4 py-2 text-left hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
