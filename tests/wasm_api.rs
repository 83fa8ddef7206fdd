//! The JavaScript contract, tested inside wasm (wasm-bindgen-test): run in Node by default and in
//! headless Chromium with `WASM_BINDGEN_USE_BROWSER=1` (both are part of `make test`).
//! Configs are built from JSON text, as a page would send them.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use js_sys::{Float32Array, JSON};
use nexttoken::wasm::step;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

/// The chapter's table after 「TypeScript 是 JavaScript 的」: 超集 / 一个 / 类型 / 语言 / 扩展.
fn chapter() -> JsValue {
    Float32Array::from(&[3.2f32, 2.1, 1.7, 0.9, 0.4][..]).into()
}

fn config(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON parses")
}

fn field(result: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(result, &JsValue::from_str(name)).expect("field exists")
}

fn error_message(result: Result<JsValue, wasm_bindgen::JsError>) -> String {
    let error: JsValue = result.err().expect("an error").into();
    field(&error, "message").as_string().expect("message")
}

#[wasm_bindgen_test]
fn greedy_takes_the_largest_logit_and_draws_nothing() {
    let r = step(chapter(), config(r#"{"strategy":"greedy"}"#)).expect("ok");
    assert_eq!(field(&r, "token").as_f64(), Some(0.0));
    assert!(field(&r, "u").is_null());
}

#[wasm_bindgen_test]
fn same_seed_and_draw_give_the_same_token() {
    let c = r#"{"temperature":1.4,"seed":9,"draw":4}"#;
    let a = JSON::stringify(&step(chapter(), config(c)).expect("ok")).expect("json");
    let b = JSON::stringify(&step(chapter(), config(c)).expect("ok")).expect("json");
    assert_eq!(a, b);
}

#[wasm_bindgen_test]
fn errors_name_their_field_and_leave_the_instance_usable() {
    let cases = [
        (r#"{"top_pp":0.9}"#, "unknown key \"top_pp\""),
        (r#"{"top_p":1.5}"#, "top_p must be in [0, 1], got 1.5"),
        (r#"{"top_k":2.5}"#, "top_k must be an integer"),
        (r#"{"temperature":"hot"}"#, "temperature must be a number"),
        (
            r#"{"history":[99]}"#,
            "history[0] must be a token id < vocabulary size 5",
        ),
        (
            r#"{"engine":"llama.cpp","epsilon_cutoff":0.1}"#,
            "epsilon_cutoff has no stage in engine \"llama.cpp\"",
        ),
    ];
    for (c, want) in cases {
        let message = error_message(step(chapter(), config(c)));
        assert!(message.contains(want), "{c}: got {message}");
        assert!(step(chapter(), config(r#"{"seed":1}"#)).is_ok());
    }
    let nan: JsValue = Float32Array::from(&[1.0f32, f32::NAN][..]).into();
    assert!(error_message(step(nan, JsValue::UNDEFINED)).contains("logits[1]"));
    let none: JsValue = Float32Array::new_with_length(0).into();
    assert!(error_message(step(none, JsValue::UNDEFINED))
        .contains("logits must have at least one entry"));
}

#[wasm_bindgen_test]
fn sampling_is_inverse_cdf_over_the_listed_order() {
    for draw in 0..50 {
        let r = step(
            chapter(),
            config(&format!(r#"{{"temperature":1.3,"seed":2,"draw":{draw}}}"#)),
        )
        .expect("ok");
        let u = field(&r, "u").as_f64().expect("u");
        let token = field(&r, "token").as_f64().expect("token");
        let candidates = js_sys::Array::from(&field(&r, "candidates"));
        let first = candidates
            .iter()
            .find(|c| field(c, "cum").as_f64().unwrap_or(0.0) > u)
            .expect("a band holds u");
        assert_eq!(field(&first, "id").as_f64(), Some(token));
    }
}

/// A value made by JavaScript source (getters and Proxies cannot be written as JSON).
fn js(source: &str) -> JsValue {
    js_sys::Function::new_no_args(&format!("return ({source});"))
        .call0(&JsValue::UNDEFINED)
        .expect("test source runs")
}

#[wasm_bindgen_test]
fn hostile_values_are_errors_and_never_poison_the_instance() {
    let cases = [
        (
            "{ get top_k() { throw new Error('boom'); } }",
            "top_k could not be read: reading it threw Error: boom",
        ),
        (
            "new Proxy({}, { ownKeys() { throw new Error('keys'); } })",
            "threw Error: keys",
        ),
        (
            "(() => { let o = {}; for (let i = 0; i < 5000; i++) o = { a: o }; return o; })()",
            "unknown key \"a\" in config",
        ),
        (
            "(() => { let o = {}; for (let i = 0; i < 5000; i++) o = { a: o }; return { logit_bias: o }; })()",
            "config must be nested at most 4 levels deep",
        ),
    ];
    for _ in 0..300 {
        for (source, want) in cases {
            let message = error_message(step(chapter(), js(source)));
            assert!(message.contains(want), "{source}: got {message}");
        }
    }
    let throwing_logits =
        js("Object.defineProperty([1, 2], 0, { get() { throw new Error('elem'); } })");
    assert!(error_message(step(throwing_logits, JsValue::UNDEFINED)).contains("threw Error: elem"));
    // Prototype keys and class getters are read.
    let inherited = step(chapter(), js("Object.create({ strategy: 'greedy' })")).expect("ok");
    assert!(field(&inherited, "u").is_null());
    let getter = step(
        chapter(),
        js("new (class { get strategy() { return 'greedy'; } })()"),
    )
    .expect("ok");
    assert!(field(&getter, "u").is_null());
    assert!(step(chapter(), config(r#"{"seed":1}"#)).is_ok());
}
