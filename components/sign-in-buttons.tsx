"use client";

import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";

export interface SignInOption {
  id: string;
  label: string;
}

export function SignInButtons({ options, callbackUrl }: { options: SignInOption[]; callbackUrl: string }) {
  return (
    <div className="flex flex-col gap-3">
      {options.map((option) => (
        <Button key={option.id} size="lg" onClick={() => signIn(option.id, { callbackUrl })}>
          {option.label}
        </Button>
      ))}
    </div>
  );
}
