// The placeholder values' type: any object of strings and numbers, an interface included.
// The calls marked @ts-expect-error are type errors; `tsc` (npm test's first step) fails when
// one is not, so these lines test the types as the others test the values.
import assert from "node:assert/strict";
import { test } from "node:test";

import { type Params, failure, message } from "../src/surface_errors/index.js";

interface Timeout {
  seconds: number;
}

type Action = { readonly action: string; readonly reason: string };

test("an interface's values are placeholder values", () => {
  const given: Timeout = { seconds: 30 };
  assert.equal(message("LLM_TIMEOUT", "en", given), message("LLM_TIMEOUT", "en", { seconds: 30 }));
  assert.deepEqual(failure("LLM_TIMEOUT", given), failure("LLM_TIMEOUT", { seconds: 30 }));
  const named: Action = { action: "search", reason: "offline" };
  const literal = { action: "search", reason: "offline" };
  assert.equal(message("ACTION_UNAVAILABLE", undefined, named), message("ACTION_UNAVAILABLE", undefined, literal));
  const record: Record<string, string | number> = { seconds: 30 };
  assert.equal(message("LLM_TIMEOUT", "en", record), message("LLM_TIMEOUT", "en", given));
});

test("the Params type names the values a code's placeholders take", () => {
  const values: Params<Timeout> = { seconds: 30 };
  assert.equal(message("LLM_TIMEOUT", "de", values), message("LLM_TIMEOUT", "de", { seconds: 30 }));
});

// Never called: each call is here for tsc, which must find it a type error.
export function refused(): void {
  interface Flag {
    seconds: boolean;
  }
  const flag: Flag = { seconds: true };
  // @ts-expect-error a boolean is no placeholder value
  message("LLM_TIMEOUT", "en", flag);
  // @ts-expect-error nor is an object
  failure("LLM_TIMEOUT", { seconds: { value: 1 } });
  // @ts-expect-error nor a list of pairs
  message("LLM_TIMEOUT", "en", [["seconds", 1]]);
}
