//! Conformance: every reference vector (HF transformers 5.24.0, llama.cpp and vLLM sampler ports;
//! min_new_tokens.json, written from HF's processor and run under all three engines) through the
//! Rust API, checked by the shared `check_dist.py` (kept sets exact modulo tie groups,
//! probabilities within 1e-5 + 1e-4·p). Error cases are checked against our own policy instead.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{step, Config, Value};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::process::Command;

fn logit(v: &Json) -> f32 {
    match v {
        Json::String(s) if s == "-inf" => f32::NEG_INFINITY,
        Json::String(s) if s == "inf" => f32::INFINITY,
        Json::String(s) if s == "nan" => f32::NAN,
        other => other.as_f64().expect("number") as f32,
    }
}

/// The case's config as the page would send it, with the file's engine.
fn config_of(case: &Json, engine: &str, vocab: usize) -> Config {
    let mut obj = case["config"].clone();
    obj["engine"] = json!(engine);
    obj["seed"] = json!(1);
    obj["trace_top"] = json!(vocab);
    let value: Value = serde_json::from_value(obj).expect("config value");
    Config::from_value(&value).unwrap_or_else(|e| panic!("{}: config rejected: {e}", case["id"]))
}

fn run_file(file: &str, engine: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let data: Json = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).expect("read"))
        .expect("json");
    let mut outputs = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let id = case["id"].as_str().expect("id");
        let logits: Vec<f32> = case["logits"]
            .as_array()
            .expect("logits")
            .iter()
            .map(logit)
            .collect();
        let config = config_of(case, engine, logits.len());
        let output = match step(&logits, &config) {
            Ok(trace) => {
                let mut probs = vec![0.0f64; logits.len()];
                for c in &trace.candidates {
                    probs[c.id as usize] = c.p;
                }
                let mut kept: Vec<u32> = trace
                    .candidates
                    .iter()
                    .filter(|c| c.kept)
                    .map(|c| c.id)
                    .collect();
                kept.sort_unstable();
                assert_eq!(
                    kept.len(),
                    trace.kept_count,
                    "{id}: kept_count disagrees with candidates"
                );
                let argmax = trace
                    .candidates
                    .first()
                    .map(|c| c.id)
                    .expect("one candidate");
                json!({ "probs": probs, "kept_ids": kept, "argmax": argmax })
            }
            Err(e) => {
                assert_eq!(case["category"], "error", "{id}: unexpected error: {e}");
                json!({ "error": true })
            }
        };
        outputs.push(json!({ "id": id, "output": output }));
    }
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = out_dir.join(format!("{engine}.{file}.native.json"));
    std::fs::write(
        &out,
        serde_json::to_string(&json!({ "cases": outputs })).expect("write"),
    )
    .expect("write");
    let result = Command::new("python3")
        .arg(dir.join("check_dist.py"))
        .arg(dir.join(file))
        .arg(&out)
        .args(["--skip-category", "error", "--strict-argmax", "--quiet"])
        .output()
        .expect("python3 runs check_dist.py");
    let text = String::from_utf8_lossy(&result.stdout);
    println!("{file}: {text}");
    assert!(
        result.status.success(),
        "{file} conformance failed:\n{text}\n{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn matches_hf_transformers() {
    run_file("hf.json", "hf");
}

#[test]
fn matches_llama_cpp() {
    run_file("llamacpp.json", "llama.cpp");
}

#[test]
fn matches_vllm() {
    run_file("vllm.json", "vllm");
}

#[test]
fn min_new_tokens_matches_hf_processor_in_every_engine() {
    for engine in ["hf", "llama.cpp", "vllm"] {
        run_file("min_new_tokens.json", engine);
    }
}
