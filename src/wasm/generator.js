// The Generator's JavaScript half: the guard on its methods, the reading of the arguments only it
// takes (model bytes, texts; the rest is boundary.js's), and its vocabulary cut into strings.
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

import { describe, detachedMessage, isDetached, loneSurrogate, nameObject, tagOf, thrown, typedArrayLength } from "./boundary.js";

const getPrototypeOf = Object.getPrototypeOf;
const ownKeys = Reflect.ownKeys;
const describeProperty = Object.getOwnPropertyDescriptor;
const defineProperty = Object.defineProperty;
const hasOwn = Object.prototype.hasOwnProperty;
const isPrototypeOf = Object.prototype.isPrototypeOf;
const apply = Reflect.apply;
const ErrorCtor = Error;
const MapCtor = Map;
const WeakRefCtor = WeakRef;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
const weakRefDeref = WeakRef.prototype.deref;
/** Each guarded prototype, and its glue's own free(). */
const guarded = new WeakMap();
/** `check`'s answer for free() of a freed instance: nothing to do. */
const FREED_AGAIN = Symbol("freed again");

// Which handles are genuine. wasm-bindgen's glue hands Rust whatever number `this.__wbg_ptr`
// holds, and Rust takes it as the address of a Generator: a forged one read and wrote arbitrary
// memory or trapped, and a live one copied into a stranger and freed there left the Generator on
// freed memory. So the guard keeps, per class, each handle wasm-bindgen set on an object it made
// (and that object, weakly), and calls the glue only with a handle in that list, on a stand-in
// object holding it: whatever `this` does when read again, the call gets that handle.
//
// An object made by the glue gets its handle by assignment (`this.__wbg_ptr = ptr` in the
// constructor, `obj.__wbg_ptr = ptr` in `__wrap`), which the accessor installed on the prototype
// sees, since the object has no own `__wbg_ptr` yet. Rust calls `generator_born` last thing
// before it returns a new Generator, so the next such assignment is the glue's and no other:
// nothing of the caller's runs in between (`__wrap` is made read-only so that it stays the
// glue's). The accessor then makes `__wbg_ptr` the plain own property it always was.
let born = false;

/** Rust: the next handle assigned on an instance is a Generator wasm-bindgen just made. */
export function generator_born() {
  born = true;
}

/** The number `self.__wbg_ptr` holds (read once, a trap or getter that throws gives undefined). */
function handleOf(self) {
  try {
    return self.__wbg_ptr;
  } catch (_) {
    return undefined;
  }
}

/** Whether `self` is an instance of `proto`'s class, read without letting a Proxy trap escape. */
function isInstance(proto, self) {
  try {
    return (typeof self === "object" || typeof self === "function") && self !== null && apply(isPrototypeOf, proto, [self]) && apply(hasOwn, self, ["__wbg_ptr"]);
  } catch (_) {
    return false;
  }
}

/**
 * The check for `Class.method` called on `self`: `{ ptr, owner }` if the call may go on (a live
 * handle and the object the glue made for it), FREED_AGAIN, or the refusal's message.
 */
function check(classState, className, method, self, freedIsFine) {
  const { proto, owners } = classState;
  if (!isInstance(proto, self)) {
    const example = className === "Generator" ? "const g = new Generator(weights, tokenizerJson)" : `const x = new ${className}(…)`;
    const name = className === "Generator" ? "g" : "x";
    return `${className}.${method}: called on ${describe(self)}, which is not a ${className}; call it on one (${example}; ${name}.${method}…)`;
  }
  const ptr = handleOf(self);
  if (ptr === 0) {
    if (freedIsFine) return FREED_AGAIN;
    const again = className === "Generator" ? "new Generator(weights, tokenizerJson), or spawn() on a live one" : `new ${className}(…)`;
    return `${className}.${method}: this ${className} was freed (free() was called); create a new one (${again})`;
  }
  // (negative is genuine too: the glue keeps the i32 Rust returned, negative past 2 GiB of memory)
  if (typeof ptr !== "number" || !Number.isInteger(ptr)) {
    return `${className}.${method}: called on ${describe(self)}, which is not a ${className}; its wasm handle is ${describe(ptr)}`;
  }
  const ref = apply(mapGet, owners, [ptr]);
  const owner = ref === undefined ? undefined : apply(weakRefDeref, ref, []);
  if (owner === undefined) {
    return `${className}.${method}: called on ${describe(self)}, which is not a ${className}; its wasm handle ${ptr} is no live ${className}'s (made by hand, or kept after free())`;
  }
  return { ptr, owner };
}

/**
 * `fn` behind the check, with the same name and length, called on a stand-in holding the checked
 * handle. `free` (and Symbol.dispose) unhooks the object the glue made for the handle, so that
 * its FinalizationRegistry entry goes too, and is refused while a call on the handle runs.
 */
function checked(classState, className, method, fn, freeing, name) {
  const { owners, running } = classState;
  const wrapper = {
    [name](...args) {
      const found = check(classState, className, method, this, freeing);
      // free() of a freed instance does nothing, as disposing twice should
      if (found === FREED_AGAIN) return undefined;
      if (typeof found === "string") throw new ErrorCtor(found);
      const { ptr, owner } = found;
      const busy = apply(mapGet, running, [ptr]);
      if (freeing) {
        if (busy !== undefined) {
          throw new ErrorCtor(`${className}.${method}: this ${className}'s ${busy} is running (free() was called from inside its argument?); call free() after it returns`);
        }
        const own = describeProperty(owner, "__wbg_ptr");
        if (own === undefined || !own.writable) {
          throw new ErrorCtor(`${className}.${method}: this ${className} is frozen (Object.freeze), so it cannot be marked freed; it is freed when it is garbage-collected`);
        }
        const destroy = classState.destroy;
        const stand = {
          __proto__: null,
          __destroy_into_raw() {
            apply(destroy, owner, []);
            apply(mapDelete, owners, [ptr]);
            return ptr;
          },
        };
        return apply(fn, stand, args);
      }
      if (busy === undefined) apply(mapSet, running, [ptr, method]);
      try {
        return apply(fn, { __proto__: null, __wbg_ptr: ptr }, args);
      } finally {
        if (busy === undefined) apply(mapDelete, running, [ptr]);
        born = false;
      }
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
  const already = guarded.get(proto);
  // the placeholder's handle is no Generator's own (it is not born): freed by the glue's own free
  if (already !== undefined) return void apply(already, instance, []);
  guarded.set(proto, proto.free);
  instance.free();
  const classState = { proto, owners: new MapCtor(), running: new MapCtor(), destroy: proto.__destroy_into_raw };
  for (const key of ownKeys(proto)) {
    if (key === "constructor" || (typeof key === "string" && key.startsWith("__"))) continue;
    const property = describeProperty(proto, key);
    const label = typeof key === "symbol" ? `[${key.description}]` : key;
    const freeing = key === "free" || key === Symbol.dispose;
    if (typeof property.value === "function") {
      property.value = checked(classState, className, label, property.value, freeing, typeof key === "symbol" ? property.value.name : key);
    } else if (typeof property.get === "function") {
      property.get = checked(classState, className, label, property.get, false, `get ${key}`);
    } else {
      continue;
    }
    defineProperty(proto, key, property);
  }
  const Class = proto.constructor;
  defineProperty(Class, "__wrap", { value: Class.__wrap, writable: false, configurable: false });
  defineProperty(proto, "__wbg_ptr", {
    get: undefined,
    set(ptr) {
      const genuine = born;
      born = false;
      defineProperty(this, "__wbg_ptr", { value: ptr, writable: true, enumerable: true, configurable: true });
      if (genuine && typeof ptr === "number" && ptr !== 0) {
        apply(mapSet, classState.owners, [ptr, new WeakRefCtor(this)]);
        nameObject(this, `a ${className}`);
      }
    },
    enumerable: false,
    configurable: false,
  });
}

// Arguments only a Generator takes, copied (as boundary.js copies the others) before Rust
// borrows any state.

const Uint8ArrayCtor = Uint8Array;

/** Model bytes as a fresh Uint8Array, or a message. */
export function snapshot_bytes(what, value, max) {
  try {
    if (tagOf(value) === "Uint8Array") {
      const length = call.call(typedArrayLength, value);
      if (length > max) return `${what} must be at most ${max} bytes, got ${length}`;
      if (length === 0 && isDetached(value)) return detachedMessage(what, "a live Uint8Array", "Uint8Array");
      return new Uint8ArrayCtor(value);
    }
    return `${what} must be a Uint8Array, got ${describe(value)}`;
  } catch (error) {
    return thrown(what, error);
  }
}

/**
 * The index of the first lone surrogate in the string `text` (half of a UTF-16 pair without its
 * other half), or −1: one native regex search, where reading the string unit by unit from Rust
 * crossed the boundary once per character (181,000 times for tokenizer.json).
 */
export function lone_surrogate_index(text) {
  const lone = loneSurrogate(text);
  return lone === null ? -1 : lone.index;
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
