// The shared envelope corpus (tests/envelopes.json), which tests/runtime/test_runtime.py runs too:
// the TypeScript and the Python classifier must give every case the same outcome.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { MalformedEnvelope, classify } from "../src/surface_errors/index.js";

interface Case {
  name: string;
  envelope: unknown;
  outcome: "success" | "protocol_failure" | "action_failure" | "malformed";
  code?: string;
  known?: boolean;
  message?: string | null;
}

// Compiled to dist/test/, three levels below the project root.
const corpus = new URL("../../../tests/envelopes.json", import.meta.url);
const cases = (JSON.parse(readFileSync(corpus, "utf-8")) as { cases: Case[] }).cases;

test("the corpus is not empty", () => {
  assert.ok(cases.length > 10);
});

for (const c of cases) {
  test(`envelope corpus: ${c.name}`, () => {
    if (c.outcome === "malformed") {
      assert.throws(() => classify(c.envelope), MalformedEnvelope);
      return;
    }
    const outcome = classify(c.envelope);
    assert.equal(outcome.outcome, c.outcome);
    if (outcome.outcome === "success") return;
    assert.equal(outcome.rawCode, c.code);
    assert.equal(outcome.code, c.known ? c.code : null);
    assert.equal(outcome.message, c.message);
  });
}
