// The boundary's JavaScript half. Every object a caller hands the wasm exports (logits, a config,
// stop sequences; the Generator's model bytes and texts in generator.js) is copied HERE, inside try/catch, before Rust borrows any state;
// Rust reads only the copies (fresh typed arrays, primitives, null-prototype objects and arrays),
// which run no user code. So a throwing getter, a Proxy trap, a detached buffer or a getter that
// calls back in becomes an Error message, and no exception unwinds through wasm frames (that
// would leave a RefCell borrowed and the shadow stack leaked). Each function returns its copy,
// or a string: the message of the Error the caller will see.

// An object of numbers (a logit_bias, most configs) as `snapshot_tree` hands it to Rust: its keys
// joined by KEY_SEPARATOR (a key holding it goes the general way), its values in one Float64Array,
// which read.rs `value_of` reads in two calls instead of about eight per entry.
const KEY_SEPARATOR = "\u0000";
export class NumberEntries {
  constructor(keys, numbers) {
    this.keys = keys;
    this.numbers = numbers;
  }
}

// Intrinsics captured once, so a caller cannot redirect them by patching prototypes later.
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArray, Symbol.toStringTag).get;
export const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArray, "length").get;
const isArray = Array.isArray;
const Float32ArrayCtor = Float32Array;
const Float64ArrayCtor = Float64Array;
const createObject = Object.create;
const NumberCtor = Number;
const BigIntCtor = BigInt;
const regexExec = RegExp.prototype.exec;
const stringIncludes = String.prototype.includes;
const arrayJoin = Array.prototype.join;
const call = Function.prototype.call;
const charCodeAt = String.prototype.charCodeAt;
const numberToString = Number.prototype.toString;
// a UTF-16 surrogate without its pair: Rust would read it as U+FFFD, so a stop sequence "\uD800"
// would silently stop at any replacement character the model writes
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const stringify = JSON.stringify;
const utf8 = new TextEncoder();
const textEncode = TextEncoder.prototype.encode;
/** A description as UTF-8 bytes: how the snapshot hands Rust a value JSON has no form for. */
function encodeUtf8(text) {
  return call.call(textEncode, utf8, text);
}
const ECHO = 40;

// Brand checks of built-ins whose contents are not properties (a Map's entries, a Date's time):
// each getter or method throws unless `this` really is one, and none runs user code (a Proxy of a
// Map is not a Map). Read as a plain object, such a value would be silently empty.
const BRANDS = [
  ["Map", Object.getOwnPropertyDescriptor(Map.prototype, "size").get],
  ["Set", Object.getOwnPropertyDescriptor(Set.prototype, "size").get],
  ["WeakMap", WeakMap.prototype.has],
  ["WeakSet", WeakSet.prototype.has],
  ["Date", Date.prototype.getTime],
  ["RegExp", Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get],
  ["ArrayBuffer", Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get],
  ["DataView", Object.getOwnPropertyDescriptor(DataView.prototype, "buffer").get],
];
if (typeof SharedArrayBuffer === "function") {
  BRANDS.push(["SharedArrayBuffer", Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength").get]);
}
// Wrapped primitives (`new Number(0.7)`, `Object(1n)`): read as objects they were silently empty
// settings, or a String's characters read as keys "0", "1", …. Checked only for an object with no
// keys or index keys, so a plain config pays nothing for them.
const WRAPPERS = [
  ["Number", Number.prototype.valueOf],
  ["String", String.prototype.valueOf],
  ["Boolean", Boolean.prototype.valueOf],
  ["BigInt", BigInt.prototype.valueOf],
  ["Symbol", Symbol.prototype.valueOf],
];

const ErrorCtor = Error;
const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;
const ownNames = Object.getOwnPropertyNames;
const ownProperty = Object.getOwnPropertyDescriptor;

// Built-ins whose state lives in internal slots and that no brand check reads without running
// code (a Promise's `then` would): found on the prototype chain, which also finds a subclass. A
// Promise read as a plain object was an empty config, a fresh random seed each call.
const iteratorPrototype = getPrototypeOf(getPrototypeOf([][Symbol.iterator]()));
const asyncIteratorPrototype = getPrototypeOf(getPrototypeOf(async function* () {}).prototype);
const BUILT_IN_PROTOTYPES = new Map([
  [Promise.prototype, "a Promise (await it first)"],
  [Error.prototype, "an Error"],
  [iteratorPrototype, "an iterator (a generator, or an array's or a Map's entries)"],
  [asyncIteratorPrototype, "an async iterator"],
]);
for (const name of ["WeakRef", "FinalizationRegistry"]) {
  if (typeof globalThis[name] === "function") BUILT_IN_PROTOTYPES.set(globalThis[name].prototype, `a ${name}`);
}
const mapGetOf = Map.prototype.get;

// The package's own objects (a Generator), each named by generator.js when the glue makes it:
// passed where a config or a list goes, one read as "unknown key \"__wbg_ptr\"" or "an object".
// A WeakMap lookup runs none of the caller's code, even on a Proxy.
const namedObjects = new WeakMap();
const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;

/** Names `object` in messages as `name` ("a Generator"). */
export function nameObject(object, name) {
  call.call(weakMapSet, namedObjects, object, name);
}

/** The name `nameObject` gave `value`, or undefined. */
function namedOf(value) {
  return call.call(weakMapGet, namedObjects, value);
}

/** What built-in `value` descends from (a Promise, an Error, an iterator…), or undefined. */
function builtInOf(value) {
  // (bounded: a Proxy's getPrototypeOf trap may hand out a new Proxy every time)
  let proto = getPrototypeOf(value);
  for (let i = 0; i < 64 && proto !== null && proto !== ObjectPrototype; i++) {
    const name = call.call(mapGetOf, BUILT_IN_PROTOTYPES, proto);
    if (name !== undefined) return name;
    proto = getPrototypeOf(proto);
  }
  return undefined;
}

/**
 * The keys of a config that `for…in` does not list: its own non-enumerable properties and its
 * classes' getters (`get topK()`), so that a misspelling there is refused like any other; methods
 * and `constructor` are not settings.
 */
function hiddenKeys(value, keys) {
  const found = [];
  let owner = value;
  for (let i = 0; i < 64 && owner !== null && owner !== ObjectPrototype; i++) {
    const names = ownNames(owner);
    // (an object literal: every own key already listed, one call and done)
    if (i === 0 && getPrototypeOf(owner) === ObjectPrototype && names.length === keys.length) break;
    for (const name of names) {
      if (name === "constructor" || keys.includes(name) || found.includes(name)) continue;
      const property = ownProperty(owner, name);
      if (property !== undefined && (property.get !== undefined || typeof property.value !== "function")) found.push(name);
    }
    owner = getPrototypeOf(owner);
  }
  return found;
}

// A typed array whose ArrayBuffer was transferred (postMessage, structuredClone) — or a view of
// WebAssembly memory that has since grown — reads as empty: named, not read as "no history".
const typedArrayBuffer = Object.getOwnPropertyDescriptor(TypedArray, "buffer").get;
const bufferDetached = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get;
const bufferSlice = ArrayBuffer.prototype.slice;
const sharedByteLength = typeof SharedArrayBuffer === "function" ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength").get : undefined;

/** Whether the typed array `view` (of length 0: a detached one has no elements) lost its buffer. */
export function isDetached(view) {
  const buffer = call.call(typedArrayBuffer, view);
  try {
    if (sharedByteLength !== undefined) {
      call.call(sharedByteLength, buffer);
      return false; // shared memory is never detached
    }
  } catch (_) {
    // not shared
  }
  if (bufferDetached !== undefined) return call.call(bufferDetached, buffer);
  try {
    call.call(bufferSlice, buffer, 0, 0);
    return false;
  } catch (_) {
    return true; // (engines before ArrayBuffer.prototype.detached: slice throws only then)
  }
}

/** The refusal of a detached typed array: `what must be <rule>, got a Float32Array whose…`. */
export function detachedMessage(what, rule, tag) {
  return `${what} must be ${rule}, got a ${tag} whose ArrayBuffer was detached (transferred, or a view of WebAssembly memory that has since grown)`;
}

/** The name of a built-in object that is not a plain object (a Map, a Date…), or undefined. */
function brandOf(value, brands = BRANDS) {
  // A plain object fails every check with a TypeError: without a stack trace (V8) they cost a
  // tenth as much; they were two thirds of a small `step`'s time.
  const limit = ErrorCtor.stackTraceLimit;
  ErrorCtor.stackTraceLimit = 0;
  try {
    for (const [name, check] of brands) {
      try {
        call.call(check, value, value);
        return name;
      } catch (_) {
        // not this built-in
      }
    }
    return undefined;
  } finally {
    ErrorCtor.stackTraceLimit = limit;
  }
}

/** The built-in name of a typed array ("Float32Array"), or undefined for anything else. */
export function tagOf(value) {
  return typedArrayTag.call(value);
}

// User text echoed in a message, made visible (the JavaScript half of src/decode/echo.rs): a bidi
// control (`top\u202Ek` reverses the rest of the line), a zero-width or other default-ignorable
// character (`top_k\u200B` looks like `top_k`), a control or a line separator is written as
// JavaScript escapes it (`\u202E`, `\u{E0041}`). The same list as echo.rs's `invisible`; no
// RegExp (String.prototype.replace would call a RegExp.prototype.exec a caller may have patched).
const codePointAt = String.prototype.codePointAt;
const stringSlice = String.prototype.slice;
const toUpper = String.prototype.toUpperCase;

/** [first, last] code point ranges: Cc, then Default_Ignorable_Code_Point (assigned), U+2028–9. */
const RANGES = [
  0x0000, 0x001f, 0x007f, 0x009f, 0x00ad, 0x00ad, 0x034f, 0x034f, 0x061c, 0x061c, 0x115f, 0x1160,
  0x17b4, 0x17b5, 0x180b, 0x180f, 0x200b, 0x200f, 0x2028, 0x202e, 0x2060, 0x206f, 0x3164, 0x3164,
  0xfe00, 0xfe0f, 0xfeff, 0xfeff, 0xffa0, 0xffa0, 0xfff0, 0xfffb, 0x1bca0, 0x1bca3, 0x1d173, 0x1d17a,
  0xe0000, 0xe0fff,
];

function invisible(c) {
  for (let i = 0; i < RANGES.length; i += 2) {
    if (c < RANGES[i]) return false;
    if (c <= RANGES[i + 1]) return true;
  }
  return false;
}

function escape(c) {
  const hex = call.call(toUpper, call.call(numberToString, c, 16));
  return c > 0xffff ? `\\u{${hex}}` : `\\u${call.call(stringSlice, "0000", hex.length)}${hex}`;
}

/** `text` with each invisible character escaped; `text` itself when it holds none. */
function visible(text) {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = call.call(codePointAt, text, i);
    const width = c > 0xffff ? 2 : 1;
    if (invisible(c)) {
      out += call.call(stringSlice, text, from, i) + escape(c);
      from = i + width;
    }
    i += width - 1;
  }
  return from === 0 ? text : out + call.call(stringSlice, text, from);
}

/** A key or string cut to ECHO characters for a message. */
function cut(text) {
  return text.length > ECHO ? `${text.slice(0, ECHO)}…` : text;
}

/** `cut`, its invisible characters escaped (`visible`: a bidi control or zero-width space). */
function short(text) {
  return visible(cut(text));
}

/** `text` cut and quoted as JSON.stringify does (a quote, a control character), then its other
 * invisible characters escaped: JSON leaves `\u202E` and `\u200B` raw. */
function quoted(text) {
  return visible(stringify(cut(text)));
}

/** What a value is, for a message: `string "hot"`, `1.5`, `an object`, `a function`. */
export function describe(value) {
  switch (typeof value) {
    case "number":
      return Object.is(value, -0) ? "0" : String(value);
    case "string":
      return `string ${quoted(value)}`;
    case "boolean":
      return `boolean ${value}`;
    case "undefined":
      return "undefined";
    case "bigint":
      return `bigint ${short(String(value))}`;
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      if (value === null) return "null";
      try {
        const named = namedOf(value);
        if (named !== undefined) return named;
        if (isArray(value)) return "an array";
        const tag = tagOf(value) ?? brandOf(value);
        if (tag !== undefined) return `${/^[AEIO]/.test(tag) ? "an" : "a"} ${tag}`;
      } catch (_) {
        // A revoked Proxy: fall through.
      }
      return "an object";
  }
}

/**
 * What an argument that is not a primitive is, for a message where a string or a number was
 * asked for: a wrapped primitive named as one (`new String("hi")`), a built-in by its name, else
 * as `describe` says. Brand checks only: no user code runs.
 */
export function describe_object(value) {
  // (called from Rust without a catch: it must never throw)
  try {
    const wrapped = brandOf(value, WRAPPERS);
    if (wrapped !== undefined) return `a ${wrapped} object (a wrapped primitive: pass the ${wrapped.toLowerCase()} itself)`;
    return describe(value);
  } catch (_) {
    return "an object";
  }
}

/** How many characters (code points) `text` holds: a surrogate pair is one. */
function codePoints(text) {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const unit = call.call(charCodeAt, text, i);
    if (unit >= 0xd800 && unit < 0xdc00) {
      const next = call.call(charCodeAt, text, i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        n -= 1;
        i += 1;
      }
    }
  }
  return n;
}

/**
 * A key as Rust will quote it: Rust's strings cannot hold a lone surrogate (it would arrive as
 * U+FFFD, "unknown key \"�\""), so each is written as its escape `\uD800`. Such a key is never a
 * setting's name nor a token id, so it is refused either way; only the message changes.
 */
function keyForRust(key) {
  if (loneSurrogate(key) === null) return key;
  let out = "";
  for (let i = 0; i < key.length; i++) {
    const unit = call.call(charCodeAt, key, i);
    const high = unit >= 0xd800 && unit < 0xdc00;
    const pairs = high && i + 1 < key.length && (call.call(charCodeAt, key, i + 1) & 0xfc00) === 0xdc00;
    if (pairs) {
      out += key[i] + key[i + 1];
      i += 1;
    } else if (unit >= 0xd800 && unit < 0xe000) out += `\\u${call.call(numberToString, unit, 16).toUpperCase()}`;
    else out += key[i];
  }
  return out;
}

/** An array's missing element, for a message: `[1, , 3]` has a hole at index 1. */
function hole(index) {
  return `a hole (no element at index ${index})`;
}

/** The message of whatever a caller's code threw (it may itself be hostile). */
export function thrown(what, error) {
  return `${what} could not be read: ${whatWasThrown(error)}`;
}

/** "reading it threw …": whatever a caller's code threw, shown safely and briefly. */
function whatWasThrown(error) {
  let text;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (typeof text !== "string") text = "a value that cannot be shown";
  } catch (_) {
    text = "a value that cannot be shown";
  }
  return `reading it threw ${visible(text.length > 160 ? `${text.slice(0, 160)}…` : text)}`;
}

/** A length read from an array-like: an integer in [0, max], or a message. */
function checkedLength(what, length, max, unit) {
  if (typeof length !== "number" || !Number.isInteger(length) || length < 0) {
    return `${what} must be an array with a valid length, got length ${describe(length)}`;
  }
  if (length > max) return `${what} must have at most ${max} ${unit}, got ${length}`;
  return length;
}

/** The first lone surrogate's regex match in `text`, or null. */
export function loneSurrogate(text) {
  return call.call(regexExec, LONE_SURROGATE, text);
}

/**
 * Logits as a fresh Float32Array, or a message. Accepts a Float32Array (copied, however it was
 * made: subclass, view of wasm memory), a Float64Array or an array of numbers (read once, element
 * by element, each rounded to float32).
 */
export function snapshot_logits(value, max) {
  try {
    const tag = tagOf(value);
    if ((tag === "Float32Array" || tag === "Float64Array") && typedArrayLength.call(value) === 0 && isDetached(value)) {
      return detachedMessage("logits", "a live typed array", tag);
    }
    if (tag === "Float32Array") {
      const length = typedArrayLength.call(value);
      if (length > max) return `logits must have at most ${max} entries, got ${length}`;
      return new Float32ArrayCtor(value);
    }
    // (a Float64Array is what JS maths produces; its elements, like an array's, are rounded)
    const float64 = tag === "Float64Array";
    if (float64 || isArray(value)) {
      const length = checkedLength("logits", float64 ? typedArrayLength.call(value) : value.length, max, "entries");
      if (typeof length === "string") return length;
      const copy = new Float32ArrayCtor(length);
      for (let i = 0; i < length; i++) {
        const x = value[i];
        if (typeof x !== "number") {
          const got = x === undefined && !(i in value) ? hole(i) : describe(x);
          return `logits[${i}] must be a finite number or -inf, got ${got}`;
        }
        copy[i] = x;
        // a finite number past float32's range would reach the core as inf: name what was passed
        if (copy[i] === Infinity && x !== Infinity) return `logits[${i}] must be finite in float32 (at most 3.4028235e38) or -inf, got ${x}`;
        // (one below it is float32's -inf, a ban, as a cast makes it: -Number.MAX_VALUE masks)
      }
      return copy;
    }
    return `logits must be a Float32Array, a Float64Array or an array of numbers, got ${describe(value)}`;
  } catch (error) {
    return thrown("logits", error);
  }
}

/**
 * A config (or any JSON-like argument) as a tree Rust can read without running user code:
 * null-prototype objects, arrays, numbers, strings, booleans and null (undefined → null).
 * Objects contribute their own and inherited enumerable string keys (`for…in`), plus each of
 * `known` that `key in value` finds (class getters, non-enumerable properties); values are read
 * with ordinary [[Get]], so getters run, once each. Bounded: `maxDepth` levels, at most `maxItems`
 * entries in any one array or object, `maxTotal` values in all, strings of at most `maxString`.
 *
 * A value JSON has no form for (a symbol, a function, a hole in an array, `undefined` in a list, a
 * Map, a BigInt no number holds exactly) is not refused here: it becomes a Uint8Array holding its
 * description ("a symbol"), which Rust reads as `Value::Other` and refuses in the same words as any
 * value of the wrong type — the field named as Rust names it, the range as the engine has it.
 * Entries are named as Rust names them too (`history[3]`, `logit_bias["5"]`), for the refusals
 * that stay here (sizes, depth, malformed text). Returns `{ value }`, or a message.
 */
export function snapshot_tree(what, value, known, maxDepth, maxItems, maxTotal, maxString) {
  // (split once: every config passes the same list)
  if (known !== lastKnown) {
    lastKnown = known;
    lastKnownKeys = known.length === 0 ? [] : known.split(",");
  }
  const knownKeys = lastKnownKeys;
  let total = 0;
  const fail = (message) => {
    throw new Refusal(message);
  };
  const other = (description) => encodeUtf8(description);
  /** An entry's name: a config's own keys bare (`seed`), list items `[i]`, object entries `["k"]`. */
  const entry = (path, depth, key) => (depth === 0 && what === "config" ? short(key) : `${path}["${short(key)}"]`);
  // Where the caller's values were last read, so that a getter or trap that throws is named by
  // its entry (`history[1]`, `top_k`); the name is only built if one does.
  let atPath = what;
  let atIndex = -1;
  let atKey;
  let atDepth = 0;
  const at = (path, index, key, depth) => {
    atPath = path;
    atIndex = index;
    atKey = key;
    atDepth = depth;
  };
  const reading = () => (atKey !== undefined ? entry(atPath, atDepth, atKey) : atIndex >= 0 ? `${atPath}[${atIndex}]` : atPath);
  // A flat list (stop sequences, token ids: no known keys) holds primitives only, never walked
  // deeper.
  const flat = knownKeys.length === 0;
  /**
   * The tree's own shape, checked once, before it is walked: a string in its place is refused by
   * type whatever it holds ("stop sequences must be an array of strings, got string …", not a
   * string's limits); settings are never a typed array (a BigInt64Array's indices were read as
   * keys, an empty one as the defaults); a flat list is an array (an object is not walked).
   */
  const misshapen = (v) => {
    if (typeof v === "string") return other(describe(v));
    if (typeof v !== "object" || v === null) return undefined;
    const tag = tagOf(v);
    // (`step(config, logits)`: the arguments the other way round)
    const swapped = what === "config" && (tag === "Float32Array" || tag === "Float64Array") ? " (the logits go before the config: step(logits, config), sampleCounts(logits, config, n))" : "";
    if (!flat && tag !== undefined) return other(describe(v) + swapped);
    if (flat && tag === undefined && !isArray(v)) return other(describe_object(v));
    return undefined;
  };
  /** `given`: a config's own entry, where `undefined` means "not given" (null: the default). */
  const copy = (v, path, depth, given) => {
    total += 1;
    if (total > maxTotal) fail(`${what} must hold at most ${maxTotal} values in all, got more at ${path}`);
    switch (typeof v) {
      case "number":
      case "boolean":
        return v;
      case "string":
        // (characters are code points, as Rust counts a stop sequence's)
        if (v.length > maxString && codePoints(v) > maxString) {
          fail(`${path} must be a string of at most ${maxString} characters, got ${codePoints(v)} characters`);
        }
        {
          const lone = loneSurrogate(v);
          if (lone !== null) fail(`${path} must be well-formed Unicode text, got a lone surrogate U+${lone[0].charCodeAt(0).toString(16).toUpperCase()} at index ${lone.index}`);
        }
        return v;
      case "undefined":
        return given ? null : other("undefined");
      case "bigint":
        // A BigInt (seed: 5n) is its number, range-checked by Rust; one no number holds exactly
        // is past every range, refused by Rust with the key's range rather than rounded.
        if (depth > 0 && BigIntCtor(NumberCtor(v)) === v) return NumberCtor(v);
        return other(depth > 0 ? `${describe(v)}, which no number holds exactly` : describe(v));
      case "object":
        if (v === null) return null;
        break;
      default:
        return other(describe(v));
    }
    if (depth >= maxDepth) {
      // a flat list's item is a primitive: an object or a list there is refused by type
      if (flat) return other(describe_object(v));
      fail(`${what} must be nested at most ${maxDepth} levels deep, got deeper at ${path}`);
    }
    at(path, -1, undefined, depth);
    const tag = tagOf(v);
    if (isArray(v) || tag !== undefined) {
      const length = checkedLength(path, tag === undefined ? v.length : typedArrayLength.call(v), maxItems, "entries");
      if (typeof length === "string") fail(length);
      if (length === 0 && tag !== undefined && isDetached(v)) fail(detachedMessage(path, "a live typed array or an array", tag));
      // A list of numbers (a history) becomes one Float64Array, copied by Rust in one call. Each
      // element is read once, counted and checked as `copy` would; from the first that is not a
      // number on, the list goes the general way.
      const numbers = new Float64ArrayCtor(length);
      let i = 0;
      let item;
      for (; i < length; i++) {
        atIndex = i;
        item = v[i];
        if (typeof item !== "number") break;
        total += 1;
        if (total > maxTotal) fail(`${what} must hold at most ${maxTotal} values in all, got more at ${path}[${i}]`);
        numbers[i] = item;
      }
      if (i === length) return numbers;
      const out = new Array(length);
      for (let j = 0; j < i; j++) out[j] = numbers[j];
      for (let first = i; i < length; i++) {
        at(path, i, undefined, depth);
        if (i !== first) item = v[i];
        if (item !== undefined || i in v) out[i] = copy(item, `${path}[${i}]`, depth + 1, false);
        else {
          total += 1;
          out[i] = other(hole(i));
        }
      }
      return out;
    }
    const keys = [];
    at(path, -1, undefined, depth);
    for (const key in v) {
      keys.push(key);
      if (keys.length > maxItems) fail(`${path} must have at most ${maxItems} keys, got more`);
    }
    // A Map, Date… keeps its entries out of its properties: refused by name, not read as empty
    // settings. An object literal with keys (and its own prototype) cannot be one, so it skips
    // the brand checks, a sixth of a small `step`'s time.
    if (keys.length === 0 || getPrototypeOf(v) !== ObjectPrototype) {
      const named = namedOf(v);
      if (named !== undefined) return other(named);
      const brand = brandOf(v);
      if (brand !== undefined) return other(`${describe(v)} (its entries are not properties)`);
      const builtIn = builtInOf(v);
      if (builtIn !== undefined) return other(builtIn);
    }
    if (depth === 0) {
      for (const key of knownKeys) if (!keys.includes(key) && key in v) keys.push(key);
    }
    const wrapped = keys.length === 0 || keys[0] === "0" ? brandOf(v, WRAPPERS) : undefined;
    if (wrapped !== undefined) return other(`a ${wrapped} object (a wrapped primitive: pass the ${wrapped.toLowerCase()} itself)`);
    // (after the wrapper check: a Symbol object's `description` getter is no misspelled key)
    if (depth === 0 && !flat) for (const key of hiddenKeys(v, keys)) keys.push(key);
    // An object of numbers becomes one NumberEntries, each value read once, counted and checked
    // as `copy` would; from the first that is not a number (or a key holding the separator) on,
    // the object goes the general way.
    const numbers = new Float64ArrayCtor(keys.length);
    let i = 0;
    let item;
    for (; i < keys.length; i++) {
      const key = keys[i];
      at(path, -1, key, depth);
      item = v[key];
      if (typeof item !== "number" || call.call(stringIncludes, key, KEY_SEPARATOR)) break;
      total += 1;
      if (total > maxTotal) fail(`${what} must hold at most ${maxTotal} values in all, got more at ${entry(path, depth, key)}`);
      numbers[i] = item;
    }
    if (i === keys.length) {
      // The separator cannot pair with a surrogate: one search of the joined keys finds any.
      let joined = call.call(arrayJoin, keys, KEY_SEPARATOR);
      if (loneSurrogate(joined) !== null) {
        const shown = [];
        for (let j = 0; j < keys.length; j++) shown[j] = keyForRust(keys[j]);
        joined = call.call(arrayJoin, shown, KEY_SEPARATOR);
      }
      return new NumberEntries(joined, numbers);
    }
    const out = createObject(null);
    for (let j = 0; j < i; j++) out[keyForRust(keys[j])] = numbers[j];
    for (let first = i; i < keys.length; i++) {
      const key = keys[i];
      at(path, -1, key, depth);
      if (i !== first) item = v[key];
      // A config key the core does not know is refused by name whatever it holds (null and
      // undefined: not given), so its value is not walked: the refusal is "unknown key".
      if (depth === 0 && item !== undefined && item !== null && knownKeys.length > 0 && !knownKeys.includes(key)) out[keyForRust(key)] = 0;
      else out[keyForRust(key)] = copy(item, entry(path, depth, key), depth + 1, depth === 0);
    }
    return out;
  };
  try {
    return { value: misshapen(value) ?? copy(value, what, 0, false) };
  } catch (error) {
    try {
      if (error instanceof Refusal) return error.message;
    } catch (_) {
      // A Proxy thrown as the error, whose prototype trap throws: not ours.
    }
    // a getter on a key the core does not know: that is what is wrong with it
    if (atDepth === 0 && atKey !== undefined && knownKeys.length > 0 && !knownKeys.includes(atKey)) {
      return `unknown key ${quoted(atKey)} in ${what}; ${whatWasThrown(error)}`;
    }
    return thrown(reading(), error);
  }
}

let lastKnown = "";
let lastKnownKeys = [];

/** A limit the snapshot itself enforces (as opposed to an exception from the caller's code). */
class Refusal {
  constructor(message) {
    this.message = message;
  }
}
