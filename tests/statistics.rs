//! Sampling matches the distribution: 20,000 seeded draws per case, counted and checked with the
//! shared chi-square helper (`check_dist.py chi2`, p ≥ 1e-3) against the reference probabilities.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{Config, Decoder, Value};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::process::Command;

const DRAWS: u64 = 20_000;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn check_file(file: &str, engine: &str) {
    let data: Json =
        serde_json::from_str(&std::fs::read_to_string(data_dir().join(file)).expect("read"))
            .expect("json");
    let mut checked = 0;
    for case in data["cases"].as_array().expect("cases") {
        let expected = &case["expected"];
        // Sampled, non-degenerate cases only: greedy and one-token distributions have nothing to
        // test. Vocabularies up to 1,000 keep 20,000 full steps per case fast enough for `make test`.
        let small = case["vocab_size"].as_u64().is_some_and(|v| v <= 1000);
        if !small
            || expected["error"] == true
            || case["config"]["temperature"] == 0.0
            || expected["num_kept"].as_u64() < Some(2)
        {
            continue;
        }
        let id = case["id"].as_str().expect("id");
        let logits: Vec<f32> = case["logits"]
            .as_array()
            .expect("logits")
            .iter()
            .map(|v| {
                if v == "-inf" {
                    f32::NEG_INFINITY
                } else {
                    v.as_f64().expect("number") as f32
                }
            })
            .collect();
        let mut obj = case["config"].clone();
        obj["engine"] = json!(engine);
        obj["seed"] = json!(20_241_130u32);
        obj["trace_top"] = json!(1);
        let base = Config::from_value(&serde_json::from_value::<Value>(obj).expect("value"))
            .expect("config");
        let mut decoder = Decoder::default();
        let mut counts = vec![0u64; logits.len()];
        for draw in 0..DRAWS {
            let config = Config {
                draw: Some(draw),
                ..base.clone()
            };
            let trace = decoder.step(&logits, &config).expect("step");
            counts[trace.token as usize] += 1;
        }
        let path =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("counts-{engine}-{id}.json"));
        std::fs::write(&path, serde_json::to_string(&counts).expect("json")).expect("write");
        let out = Command::new("python3")
            .arg(data_dir().join("check_dist.py"))
            .args(["chi2", "--oracle"])
            .arg(data_dir().join(file))
            .args(["--case", id, "--counts"])
            .arg(&path)
            .args(["--alpha", "1e-3"])
            .output()
            .expect("python3 runs check_dist.py");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{file} {id}: sampled frequencies do not match p:\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 5, "{file}: only {checked} sampled cases checked");
}

#[test]
fn hf_sampling_frequencies_match_probabilities() {
    check_file("hf.json", "hf");
}

#[test]
fn llama_cpp_sampling_frequencies_match_probabilities() {
    check_file("llamacpp.json", "llama.cpp");
}

#[test]
fn vllm_sampling_frequencies_match_probabilities() {
    check_file("vllm.json", "vllm");
}
