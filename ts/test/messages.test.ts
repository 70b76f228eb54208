// The shared message corpus (tests/messages.json), which tests/runtime/test_runtime.py runs too:
// the TypeScript and the Python runtime must write every message alike, digit grouping and
// the isolation of values in a right-to-left language included.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { type ErrorCode, failure, message } from "../src/surface_errors/index.js";
import "../src/surface_errors/locales/index.js";

interface Case {
  kind: "message" | "failure";
  code: ErrorCode;
  locale: string | null;
  params: Record<string, string | number>;
  message: string;
}

// Compiled to dist/test/, three levels below the project root.
const corpus = new URL("../../../tests/messages.json", import.meta.url);
const cases = (JSON.parse(readFileSync(corpus, "utf-8")) as { cases: Case[] }).cases;

test("the message corpus is not empty", () => {
  assert.ok(cases.length > 20);
});

for (const c of cases) {
  test(`message corpus: ${c.kind} ${c.code} in ${c.locale ?? "no locale"} with ${JSON.stringify(c.params)}`, () => {
    const locale = c.locale ?? undefined;
    if (c.kind === "message") {
      assert.equal(message(c.code, locale, c.params), c.message);
      return;
    }
    const envelope = failure(c.code, c.params, locale === undefined ? {} : { locale });
    const body = envelope.ok ? envelope.result.error : envelope.error;
    assert.equal(body?.message, c.message);
  });
}
