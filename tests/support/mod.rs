//! What the Rust benchmarks and pinned-draw tests share: issue 10's logits generator and its
//! matrix of configurations (tests/bench/logits.mjs and tests/bench/matrix.mjs are the same for
//! the wasm half). Included with `#[path]` by tests/bench/step.rs and tests/draw_pins.rs.

use nexttoken::decode::{Config, Engine};

/// Realistic ("peaked") logits, as tests/bench/logits.mjs makes them: xorshift32, a four-uniform
/// approximately normal bulk (σ ≈ 2.5) and 30 strong candidates.
pub fn peaked_logits(n: usize) -> Vec<f32> {
    let mut state: u32 = 0x9e37_79b9;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        f64::from(state) / 4_294_967_296.0
    };
    let mut logits: Vec<f32> = (0..n)
        .map(|_| {
            let g = (next() + next() + next() + next() - 2.0) * 3f64.sqrt();
            (2.5 * g) as f32
        })
        .collect();
    for i in 0..30.min(n) {
        logits[(i * 7919) % n] = (18.0 - 0.4 * i as f64) as f32;
    }
    logits
}

/// Issue 10's matrix, named as in tests/bench/matrix.mjs; `history` is the repetition penalty's.
pub fn matrix(history: Vec<u32>) -> Vec<(&'static str, Config)> {
    let combined = |engine: &str| Config {
        engine: Engine::from_name(engine),
        temperature: Some(0.8),
        top_k: Some(40),
        top_p: Some(0.95),
        min_p: Some(0.05),
        ..Config::default()
    };
    let base = Config::default();
    vec![
        (
            "greedy",
            Config {
                temperature: Some(0.0),
                ..base.clone()
            },
        ),
        ("T 1", base.clone()),
        (
            "T 0.7",
            Config {
                temperature: Some(0.7),
                ..base.clone()
            },
        ),
        (
            "T 1.5",
            Config {
                temperature: Some(1.5),
                ..base.clone()
            },
        ),
        (
            "top-k 40",
            Config {
                top_k: Some(40),
                ..base.clone()
            },
        ),
        (
            "top-p 0.9",
            Config {
                top_p: Some(0.9),
                ..base.clone()
            },
        ),
        (
            "min-p 0.05",
            Config {
                min_p: Some(0.05),
                ..base.clone()
            },
        ),
        (
            "typical-p 0.9",
            Config {
                typical_p: Some(0.9),
                ..base.clone()
            },
        ),
        (
            "repetition 1.3 (256 history)",
            Config {
                repetition_penalty: Some(1.3),
                history: Some(history),
                ..base.clone()
            },
        ),
        ("combined hf", combined("hf")),
        ("combined llama.cpp", combined("llama.cpp")),
        ("combined vllm", combined("vllm")),
    ]
}
