// Tests of the generated TypeScript module, run with node's test runner (`npm test`).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CODES,
  ErrorCode,
  LIMITS,
  MalformedEnvelope,
  classify,
  failure,
  fallbackChain,
  message,
  recoveryHint,
  registerLocale,
  title,
  type SurfaceResult,
} from "../src/surface_errors/index.js";
import "../src/surface_errors/locales/index.js";

test("classify keeps success, protocol failure and action failure apart", () => {
  const success = classify({ ok: true, result: { value: 42 } });
  const protocol = classify({ ok: false, error: { code: "CAPABILITY_NOT_EXPOSED", message: "m" } });
  const action = classify({ ok: true, result: { error: { code: "PERMISSION_DENIED", message: "m" } } });
  assert.equal(success.outcome, "success");
  assert.equal(protocol.outcome, "protocol_failure");
  assert.equal(action.outcome, "action_failure");
  assert.ok(action.outcome === "action_failure" && action.code === ErrorCode.PERMISSION_DENIED);
});

test("an unknown code is classified by its shape", () => {
  const outcome = classify({ ok: true, result: { error: { code: "FROM_THE_FUTURE" } } });
  assert.ok(outcome.outcome === "action_failure");
  assert.equal(outcome.code, null);
  assert.equal(outcome.rawCode, "FROM_THE_FUTURE");
});

test("malformed envelopes throw MalformedEnvelope", () => {
  for (const bad of [null, [], {}, { ok: "yes" }, { ok: false }, { ok: true }, { ok: false, error: { message: "x" } }]) {
    assert.throws(() => classify(bad), MalformedEnvelope);
  }
});

test("every code round-trips through its declared shape", () => {
  for (const code of Object.values(ErrorCode)) {
    const info = CODES[code];
    const params: Record<string, string | number> = {};
    for (const name of info.placeholders) params[name] = info.integers.includes(name) ? 3 : "x";
    const outcome = classify(failure(code, params));
    assert.equal(outcome.outcome, info.shape === "protocol" ? "protocol_failure" : "action_failure");
    assert.ok("code" in outcome && outcome.code === code);
  }
});

test("every code gives back its values, message, locale and request id through JSON", () => {
  const texts = ["", "pay", "{action}", "\u{1F600} é ü", "١٢٣", "a\"b\\c"];
  const integers = [0, 1, 5, -3, 2 ** 53 - 1, -(2 ** 53 - 1)];
  let seen = 0;
  for (const code of Object.values(ErrorCode)) {
    const info = CODES[code];
    if (info.status === "retired") continue;
    for (const [i, locale] of [undefined, "de-AT", "ja_JP.UTF-8", "pl", "ar", "xx"].entries()) {
      const params: Record<string, string | number> = {};
      for (const name of info.placeholders) {
        if (name === "request_id") continue; // filled from requestId, as in Python
        params[name] = info.integers.includes(name) ? integers[(i + seen) % integers.length]! : texts[(i + seen) % texts.length]!;
      }
      const options = locale === undefined ? { requestId: `req-${i}` } : { locale, requestId: `req-${i}` };
      const sent = failure(code, params, options);
      const back = classify(JSON.parse(JSON.stringify(sent)));
      assert.ok(back.outcome !== "success" && back.code === code);
      const filled = info.placeholders.includes("request_id") ? { ...params, request_id: `req-${i}` } : params;
      assert.deepEqual(back.error["params"] ?? {}, filled);
      assert.equal(back.message, message(code, locale, filled));
      assert.equal(back.error["request_id"], `req-${i}`);
      // every code is translated into every shipped language: the chain's first is the one
      assert.equal(back.error["locale"], fallbackChain(locale)[0]!.replace(/_/g, "-"));
      seen++;
    }
  }
  assert.ok(seen > 50);
});

test("a placeholder value of another type than declared is refused", () => {
  for (const value of [NaN, Infinity, -Infinity, 60.5, "60"]) {
    assert.throws(() => failure(ErrorCode.LLM_TIMEOUT, { seconds: value }), {
      name: "TypeError",
      message: /^LLM_TIMEOUT: placeholder 'seconds' must be an integer, not /,
    });
  }
  for (const value of [2 ** 53, -(2 ** 53), 1e300]) {
    assert.throws(() => failure(ErrorCode.LLM_TIMEOUT, { seconds: value }), {
      name: "RangeError",
      message: /^LLM_TIMEOUT: placeholder 'seconds' is outside/,
    });
  }
  assert.equal(classify(failure(ErrorCode.LLM_TIMEOUT, { seconds: 2 ** 53 - 1 })).outcome, "protocol_failure");
  for (const value of [7, NaN]) {
    assert.throws(() => failure(ErrorCode.PERMISSION_DENIED, { action: value }), {
      name: "TypeError",
      message: /^PERMISSION_DENIED: placeholder 'action' must be a string, not /,
    });
  }
  for (const value of ["\uD800", "pay\uDFFF"]) {
    assert.throws(() => failure(ErrorCode.PERMISSION_DENIED, { action: value }), {
      name: "RangeError",
      message: /^PERMISSION_DENIED: placeholder 'action' has a lone surrogate/,
    });
  }
  const smile = failure(ErrorCode.PERMISSION_DENIED, { action: "pay \u{1F600}" });
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(smile)));
  // the values that travel are JSON: what goes out comes back the same
  const back = classify(JSON.parse(JSON.stringify(failure(ErrorCode.TOO_MANY_ACTIONS, { count: 80, maximum: 64 }))));
  assert.ok(back.outcome !== "success");
  assert.deepEqual(back.error["params"], { count: 80, maximum: 64 });
});

test("messages in German and Japanese", () => {
  assert.equal(message(ErrorCode.PERMISSION_DENIED, "de-AT", { action: "x" }), "Die Aktion x wurde nicht erlaubt.");
  assert.match(message(ErrorCode.PERMISSION_DENIED, "ja_JP.UTF-8", { action: "x" }), /「x」/);
  assert.equal(message(ErrorCode.PERMISSION_DENIED, "xx", { action: "x" }), "The action x was not allowed.");
  assert.deepEqual(fallbackChain("de_AT"), ["de", "en"]);
});

test("a locale that is no string is a TypeError that says so, from every entry point", () => {
  // From JavaScript, or past the types: not the error of a string method called on it.
  for (const tag of [5, ["de"], { de: 1 }, true] as unknown as string[]) {
    const calls = [
      () => fallbackChain(tag),
      () => message(ErrorCode.PERMISSION_DENIED, tag, { action: "x" }),
      () => title(ErrorCode.PERMISSION_DENIED, tag),
      () => failure(ErrorCode.PERMISSION_DENIED, { action: "x" }, { locale: tag }),
    ];
    for (const call of calls) {
      assert.throws(call, (error: unknown) =>
        error instanceof TypeError && /^locale must be a string .* not (number|object|boolean)$/.test(error.message));
    }
  }
  assert.deepEqual(fallbackChain(null as unknown as string), ["en"]); // as Python's None
});

test("a code's title in the reader's language, the same for every occurrence", () => {
  assert.equal(CODES.PERMISSION_DENIED.title, "Permission denied");
  assert.equal(title(ErrorCode.PERMISSION_DENIED), "Permission denied");
  assert.equal(title(ErrorCode.PERMISSION_DENIED, "de-AT"), "Berechtigung verweigert");
  assert.equal(title(ErrorCode.PERMISSION_DENIED, "ja_JP.UTF-8"), "権限がありません");
  assert.equal(title(ErrorCode.PERMISSION_DENIED, "xx"), "Permission denied");
  // The title's entry sits beside the message's and does not take its place.
  assert.equal(message(ErrorCode.PERMISSION_DENIED, "de", { action: "x" }), "Die Aktion x wurde nicht erlaubt.");
  for (const code of Object.values(ErrorCode)) {
    assert.ok(!/[{}]/.test(title(code, "de")), code);
  }
});

test("Polish picks its plural form by its rule", () => {
  const text = (n: number) => message(ErrorCode.LLM_RETRIES_EXHAUSTED, "pl", { attempts: n });
  const one = (n: number) => `Dostawca modelu AI zawiódł przy ${n} próbie, a dalsze próby nie są dozwolone.`;
  const more = (n: number) =>
    `Dostawca modelu AI zawiódł przy ${n} kolejnych próbach, a dalsze próby nie są dozwolone.`;
  assert.equal(text(1), one(1));
  for (const n of [2, 5, 22, 25]) assert.equal(text(n), more(n));
});

test("Arabic picks its forms through Intl.PluralRules", () => {
  const forms = new Set([0, 1, 2, 3, 11, 100].map((n) => message(ErrorCode.LLM_RETRIES_EXHAUSTED, "ar", { attempts: n })));
  assert.ok(forms.size >= 5);
});

test("a hostile translation falls back to the source text", () => {
  registerLocale("xx", { PERMISSION_DENIED: "{action.constructor} {0}" });
  assert.equal(message(ErrorCode.PERMISSION_DENIED, "xx", { action: "pay" }), "The action pay was not allowed.");
});

test("wrong parameters name the code and the placeholder", () => {
  assert.throws(() => message(ErrorCode.ACTION_UNAVAILABLE, "de", { action: "x" }), /ACTION_UNAVAILABLE: missing placeholder 'reason'/);
  assert.throws(() => message(ErrorCode.LLM_TIMEOUT, "de", { seconds: "ten" }), /must be an integer/);
});

test("limits and hints come from the registry", () => {
  assert.equal(LIMITS.llm_timeout.default, 60);
  assert.ok(LIMITS.llm_timeout.codes.includes(ErrorCode.LLM_TIMEOUT));
  assert.match(recoveryHint(ErrorCode.PERMISSION_DENIED), /Do not call it again/);
});

test("a caller that rules out both failures reads the result", () => {
  const r = { ok: true, result: { value: 7 } } as SurfaceResult<{ value: number }>;
  let seen = 0;
  if (r.ok && r.result.error === undefined) seen = r.result.value;
  assert.equal(seen, 7);
});

test("a name that is no code of this registry is a RangeError, never undefined", () => {
  for (const name of ["FOO", "constructor", "__proto__", "toString"]) {
    const code = name as ErrorCode;
    assert.throws(() => message(code, "de", {}), RangeError);
    assert.throws(() => title(code), RangeError);
    assert.throws(() => recoveryHint(code), RangeError);
    assert.throws(() => failure(code, {}), RangeError);
  }
});

test("locale tags negotiate as the Python package negotiates them", () => {
  // The expected chains are the Python package's fallback_chain for the same tags.
  assert.deepEqual(fallbackChain("DE"), ["de", "en"]);
  assert.deepEqual(fallbackChain(" de "), ["de", "en"]);
  assert.deepEqual(fallbackChain("de-AT"), ["de", "en"]);
  assert.deepEqual(fallbackChain("ar_EG.UTF-8"), ["ar", "en"]);
  assert.deepEqual(fallbackChain("C"), ["en"]);
  // Registered under their canonical form, in whatever order: the same region first, then
  // by name (the one registered first won before).
  registerLocale("pt_pt", {});
  registerLocale("pt-BR", {});
  assert.deepEqual(fallbackChain("pt"), ["pt_BR", "pt_PT", "en"]);
  assert.deepEqual(fallbackChain("pt-PT"), ["pt_PT", "pt_BR", "en"]);
  assert.throws(() => registerLocale("C", {}), TypeError);
});

test("a whole number of 21 digits or more is written out, grouped, never as 1e+21", () => {
  const text = message("TOO_MANY_ACTIONS", "en", { count: 5, maximum: 1e21 });
  assert.ok(text.includes("1,000,000,000,000,000,000,000"), text);
  // As the Python package writes 10**21 (ja groups with a comma too).
  assert.ok(message("TOO_MANY_ACTIONS", "ja", { count: 1e21, maximum: 3 }).includes("1,000,000,000,000,000,000,000"));
});

test("requestId fills the request_id placeholder and is checked, as in Python", () => {
  const sent = failure("LLM_FAILED", {}, { requestId: "abc" });
  const body = sent.ok ? sent.result.error : sent.error;
  assert.ok(body.message.includes("abc") && body.request_id === "abc");
  assert.throws(() => failure("LLM_FAILED", { request_id: "a" }, { requestId: "b" }), TypeError);
  assert.throws(() => failure("LLM_FAILED", {}, { requestId: 5 as unknown as string }), TypeError);
  assert.throws(() => failure("LLM_FAILED", {}, { requestId: "r-\ud800" }), RangeError);
});

test("an option on Object.prototype is no option given", () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto["locale"] = "ar";
  try {
    const sent = failure("PERMISSION_DENIED", { action: "pay" });
    const body = sent.ok ? sent.result.error : sent.error;
    assert.equal(body.locale, "en");
  } finally {
    delete proto["locale"];
  }
});

test("classify reads an envelope's own fields, not Object.prototype's", () => {
  // As the Python package's classify reads a dict's keys: an envelope parsed from JSON has
  // only its own fields, and a field set on Object.prototype by other code is none of them.
  const proto = Object.prototype as Record<string, unknown>;
  proto["ok"] = false;
  proto["error"] = { code: "PERMISSION_DENIED", message: "inherited" };
  proto["result"] = { error: { code: "PERMISSION_DENIED" } };
  try {
    assert.throws(() => classify({}), MalformedEnvelope);
    assert.throws(() => classify({ ok: true }), /needs a 'result'/);
    assert.deepEqual(classify({ ok: true, result: { value: 1 } }), { outcome: "success", result: { value: 1 } });
    assert.throws(() => classify({ ok: false }), MalformedEnvelope);
    const found = classify({ ok: false, error: { code: "PERMISSION_DENIED", detail: 1 } });
    assert.equal(found.outcome === "success" ? undefined : found.message, null);
  } finally {
    delete proto["ok"];
    delete proto["error"];
    delete proto["result"];
  }
});

test("registerLocale refuses what is no locale's messages", () => {
  const file = { $comment: "generated", locale: "it", messages: {} };
  assert.throws(() => registerLocale("it", file as unknown as Record<string, string>), /\.messages/);
  assert.throws(() => registerLocale("it", null as unknown as Record<string, string>), TypeError);
  assert.deepEqual(fallbackChain("it"), ["en"]);
});

test("failure() takes options that may be undefined, under exactOptionalPropertyTypes", () => {
  // This file compiles with exactOptionalPropertyTypes: a caller's maybe-undefined values
  // must be accepted as the options they stand for (a compile error before).
  const maybeLocale: string | undefined = process.env["ERRORBOOK_NO_SUCH_VARIABLE"];
  const maybeId: string | undefined = undefined;
  const sent = failure("PERMISSION_DENIED", { action: "pay" }, { locale: maybeLocale, requestId: maybeId });
  const body = sent.ok ? sent.result.error : sent.error;
  assert.equal(body.locale, "en");
  assert.equal(body.request_id, undefined);
});

test("null parameters are no parameters, as Python's params=None", () => {
  const none = null as unknown as Record<string, string>;
  assert.equal(message("NOT_CONFIGURED", "de", none), message("NOT_CONFIGURED", "de"));
  const sent = failure("NOT_CONFIGURED", none);
  assert.equal(sent.ok ? sent.result.error.code : sent.error.code, "NOT_CONFIGURED");
  assert.throws(() => message("PERMISSION_DENIED", "de", none), /missing placeholder 'action'/);
});

test("a locale named after an Object.prototype member falls back like any unknown locale", () => {
  // An Accept-Language header can carry "constructor": a lookup that found
  // Object.prototype.constructor threw "function is not iterable" (issue 49).
  for (const tag of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "constructor-DE"]) {
    assert.deepEqual(fallbackChain(tag), ["en"], tag);
    assert.equal(message("LLM_TIMEOUT", tag, { seconds: 60 }), message("LLM_TIMEOUT", "en", { seconds: 60 }));
    assert.equal(title("PERMISSION_DENIED", tag), title("PERMISSION_DENIED", "en"));
    const sent = failure("LLM_TIMEOUT", { seconds: 60 }, { locale: tag });
    assert.ok(sent.ok === false || sent.ok === true);
  }
});
