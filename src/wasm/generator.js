// The Generator's JavaScript half: the guard on its methods, and its vocabulary cut into strings.
// (One module, not two: every snippet is one more request the glue makes at load, see
// tests/tools/wasm-browser-test.sh.)
//
// The guard on an exported class's methods: a call on an instance that was freed, or on something
// that is not an instance, is refused here in words naming the method, before wasm-bindgen's glue
// hands Rust a pointer of 0 (its own message, "null pointer passed to rust", names nothing) or
// whatever a stranger's `__wbg_ptr` holds.
//
// The glue's classes are not reachable from a snippet at load time, so Rust hands over one
// placeholder instance at start (`start` in generator.rs); its prototype is guarded in place and
// the placeholder freed. Every Generator, however made (`new`, `spawn`), shares that prototype.

import { describe } from "./boundary.js";

const getPrototypeOf = Object.getPrototypeOf;
const ownKeys = Reflect.ownKeys;
const describeProperty = Object.getOwnPropertyDescriptor;
const defineProperty = Object.defineProperty;
const hasOwn = Object.prototype.hasOwnProperty;
const isPrototypeOf = Object.prototype.isPrototypeOf;
const apply = Reflect.apply;
const ErrorCtor = Error;
const guarded = new WeakSet();
/** `refusal`'s answer for free() of a freed instance: nothing to do. */
const FREED_AGAIN = Symbol("freed again");

/** Whether `self` is an instance of `proto`'s class, read without letting a Proxy trap escape. */
function isInstance(proto, self) {
  try {
    return (typeof self === "object" || typeof self === "function") && self !== null && apply(isPrototypeOf, proto, [self]) && apply(hasOwn, self, ["__wbg_ptr"]);
  } catch (_) {
    return false;
  }
}

/** The refusal for `Class.method` called on `self`, FREED_AGAIN, or undefined if the call may go on. */
function refusal(proto, className, method, self, freedIsFine) {
  if (!isInstance(proto, self)) {
    const example = className === "Generator" ? "const g = new Generator(weights, tokenizerJson)" : `const x = new ${className}(…)`;
    const name = className === "Generator" ? "g" : "x";
    return `${className}.${method}: called on ${describe(self)}, which is not a ${className}; call it on one (${example}; ${name}.${method}…)`;
  }
  let ptr;
  try {
    ptr = self.__wbg_ptr;
  } catch (_) {
    ptr = undefined;
  }
  if (ptr === 0) {
    if (freedIsFine) return FREED_AGAIN;
    const again = className === "Generator" ? "new Generator(weights, tokenizerJson), or spawn() on a live one" : `new ${className}(…)`;
    return `${className}.${method}: this ${className} was freed (free() was called); create a new one (${again})`;
  }
  if (typeof ptr !== "number" || !Number.isInteger(ptr) || ptr < 0) {
    return `${className}.${method}: called on ${describe(self)}, which is not a ${className}; its wasm handle is ${describe(ptr)}`;
  }
  return undefined;
}

/** `fn` behind the check, with the same name and length. */
function checked(proto, className, method, fn, freedIsFine, name) {
  const wrapper = {
    [name](...args) {
      const refused = refusal(proto, className, method, this, freedIsFine);
      // free() of a freed instance does nothing, as disposing twice should
      if (refused === FREED_AGAIN) return undefined;
      if (refused !== undefined) throw new ErrorCtor(refused);
      return apply(fn, this, args);
    },
  }[name];
  defineProperty(wrapper, "length", { value: fn.length });
  return wrapper;
}

/**
 * Guards every method and getter of `instance`'s class (named `className` in messages), then
 * frees `instance`. Idempotent: a prototype is guarded once.
 */
export function guard_class(instance, className) {
  const proto = getPrototypeOf(instance);
  instance.free();
  if (guarded.has(proto)) return;
  guarded.add(proto);
  for (const key of ownKeys(proto)) {
    if (key === "constructor" || (typeof key === "string" && key.startsWith("__"))) continue;
    const property = describeProperty(proto, key);
    const label = typeof key === "symbol" ? `[${key.description}]` : key;
    const freeing = key === "free" || key === Symbol.dispose;
    if (typeof property.value === "function") {
      property.value = checked(proto, className, label, property.value, freeing, typeof key === "symbol" ? property.value.name : key);
    } else if (typeof property.get === "function") {
      property.get = checked(proto, className, label, property.get, false, `get ${key}`);
    } else {
      continue;
    }
    defineProperty(proto, key, property);
  }
}

// The vocabulary's JavaScript half: every entry crosses as one string with the UTF-16 offset where
// each ends, and is cut here. Decoding 8,000 short strings one by one cost the page more than
// this whole list.

// Captured once, so a caller cannot redirect it by patching the prototype later.
const slice = String.prototype.slice;
const call = Function.prototype.call;
const ArrayCtor = Array;

/** `text` cut at `ends` (UTF-16 offsets, ascending): entry i is text[ends[i − 1] .. ends[i]]. */
export function split_vocab(text, ends) {
  const out = new ArrayCtor(ends.length);
  let at = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = call.call(slice, text, at, ends[i]);
    at = ends[i];
  }
  return out;
}
