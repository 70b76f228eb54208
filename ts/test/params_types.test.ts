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

test("a wrapper generic over its values' type passes them on", () => {
  type Seconds = { seconds: number };
  const wrapped = <T extends Seconds>(values: T, frozen: Readonly<T>): [string, string] => [
    message("LLM_TIMEOUT", "en", values),
    String(failure("LLM_TIMEOUT", { ...frozen }, { locale: "en" }).ok),
  ];
  assert.deepEqual(wrapped({ seconds: 30 }, { seconds: 30 }), [message("LLM_TIMEOUT", "en", { seconds: 30 }), "false"]);
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
  // @ts-expect-error nor a list of values
  message("LLM_TIMEOUT", "en", ["30"]);
  interface Maybe {
    seconds?: number;
  }
  const maybe: Maybe = {};
  // @ts-expect-error a value that may be missing
  failure("LLM_TIMEOUT", maybe);
  // @ts-expect-error nor may a Record's values be undefined
  message("LLM_TIMEOUT", "en", {} as Record<string, number | undefined>);
  // @ts-expect-error null is no object of values (a JavaScript caller's null is read as none)
  message("LLM_TIMEOUT", "en", null);
}
