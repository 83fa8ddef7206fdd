//! What the Rust benchmarks and pinned-draw tests share: issue 10's logits generator and its
//! matrix of configurations (tests/bench/logits.mjs and tests/bench/matrix.mjs are the same for
//! the wasm half). Included with `#[path]` by tests/bench/step.rs and tests/draw_pins.rs.

use nexttoken::decode::{Config, Engine};

/// Realistic ("peaked") logits, as tests/bench/logits.mjs makes them: xorshift32, a four-uniform
/// approximately normal bulk (σ ≈ 2.5) and 30 strong candidates (18 down to 6.4: after a clear
/// context, the top token about a third of the mass at T = 1, the top ten 0.97).
pub fn peaked_logits(n: usize) -> Vec<f32> {
    logits_with_head(n, 18.0)
}

/// The same bulk with its 30 candidates 4 lower (14 down to 2.4): an open context, where the top
/// token holds about a fifth of the mass and the top ten two thirds, so top-p 0.9 keeps ~10,000
/// of 151,936 tokens (7 with `peaked_logits`). The matrix is peaked; `uncertain_rows` run here.
#[allow(dead_code)] // the criterion bench's only
pub fn uncertain_logits(n: usize) -> Vec<f32> {
    logits_with_head(n, 14.0)
}

fn logits_with_head(n: usize, top: f64) -> Vec<f32> {
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
        logits[(i * 7919) % n] = (top - 0.4 * i as f64) as f32;
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

/// A history of `len` ids at vocabulary `n`, as tests/bench/matrix.mjs makes it.
pub fn history(len: u32, n: usize) -> Vec<u32> {
    (0..len).map(|i| (i * 7919 + 17) % n as u32).collect()
}

/// Every other stage the config accepts (issue 10's matrix has none of them), and the HF
/// configuration a user meets with the penalties on, at vocabulary `n`; named as in
/// tests/bench/matrix.mjs. Not part of `matrix` so that its pins (tests/draw_pins.rs) stay as
/// recorded; these have pins of their own.
pub fn more_stages(n: usize) -> Vec<(&'static str, Config)> {
    let base = Config::default();
    let bias: Vec<(u32, f64)> = (0..32u32)
        .map(|i| {
            let id = (i * 4099 + 5) % n as u32;
            (id, if i % 4 == 0 { f64::NEG_INFINITY } else { 3.0 })
        })
        .collect();
    vec![
        (
            "epsilon 3e-5",
            Config {
                epsilon_cutoff: Some(3e-5),
                ..base.clone()
            },
        ),
        (
            "hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5",
            Config {
                temperature: Some(1.3),
                top_p: Some(0.95),
                repetition_penalty: Some(1.1),
                history: Some(history(512, n)),
                epsilon_cutoff: Some(3e-5),
                ..base.clone()
            },
        ),
        (
            "llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64)",
            Config {
                engine: Engine::from_name("llama.cpp"),
                repetition_penalty: Some(1.1),
                frequency_penalty: Some(0.5),
                presence_penalty: Some(0.5),
                penalty_last_n: Some(64),
                history: Some(history(256, n)),
                ..base.clone()
            },
        ),
        (
            "llama.cpp dynatemp 0.8 ± 0.5",
            Config {
                engine: Engine::from_name("llama.cpp"),
                temperature: Some(0.8),
                dynatemp_range: Some(0.5),
                ..base.clone()
            },
        ),
        (
            "logit_bias 32 ids (8 bans)",
            Config {
                logit_bias: Some(bias),
                ..base.clone()
            },
        ),
        (
            "min_new_tokens 8 (eos 0)",
            Config {
                min_new_tokens: Some(8),
                eos_token_id: Some(vec![0]),
                history: Some(vec![]),
                ..base
            },
        ),
    ]
}

/// Rows added after `more_stages` was pinned, each pinned (tests/draw_pins.rs `PINNED_NEWER`) with
/// the code before any change made it faster: llama.cpp's mix of typical-p, its three penalties
/// and a minimum length (4 of 8 new tokens so far, so the end id is held back), at T 0.8; HF's
/// eta_cutoff (pinned with its first code: `step` had no such key before); the mix the page's
/// sliders make (T 1.2, top-k 100, min-p 0.1, a repetition penalty over a short history).
pub fn newer_stages(n: usize) -> Vec<(&'static str, Config)> {
    vec![
        (
            "llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8",
            Config {
                engine: Engine::from_name("llama.cpp"),
                temperature: Some(0.8),
                typical_p: Some(0.9),
                repetition_penalty: Some(1.1),
                frequency_penalty: Some(0.5),
                presence_penalty: Some(0.5),
                penalty_last_n: Some(64),
                history: Some(history(256, n)),
                history_prompt_len: Some(252),
                min_new_tokens: Some(8),
                eos_token_id: Some(vec![0]),
                ..Config::default()
            },
        ),
        (
            "eta 3e-4",
            Config {
                eta_cutoff: Some(3e-4),
                ..Config::default()
            },
        ),
        (
            "learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history)",
            Config {
                temperature: Some(1.2),
                top_k: Some(100),
                min_p: Some(0.1),
                repetition_penalty: Some(1.15),
                history: Some(history(6, n)),
                ..Config::default()
            },
        ),
    ]
}

/// Rows measured on `uncertain_logits` (an open context) as well, named with " · uncertain":
/// where the matrix's peaked logits flatter a configuration whose cost grows with what it keeps
/// (top-p, typical-p walk a sorted prefix up to their cut). As in tests/bench/matrix.mjs.
#[allow(dead_code)] // the criterion bench's only
pub fn uncertain_rows() -> Vec<(&'static str, Config)> {
    vec![
        ("T 1 · uncertain", Config::default()),
        (
            "T 0.8 top-p 0.95 · uncertain",
            Config {
                temperature: Some(0.8),
                top_p: Some(0.95),
                ..Config::default()
            },
        ),
        (
            "top-p 0.9 · uncertain",
            Config {
                top_p: Some(0.9),
                ..Config::default()
            },
        ),
        (
            "min-p 0.05 · uncertain",
            Config {
                min_p: Some(0.05),
                ..Config::default()
            },
        ),
        (
            "typical-p 0.9 · uncertain",
            Config {
                typical_p: Some(0.9),
                ..Config::default()
            },
        ),
        (
            "combined hf · uncertain",
            Config {
                temperature: Some(0.8),
                top_k: Some(40),
                top_p: Some(0.95),
                min_p: Some(0.05),
                ..Config::default()
            },
        ),
        // A learner who drags temperature to the slider's end under the page's default top-p:
        // half the vocabulary kept, the cut found by sorting it (session 16: 7–12× the floor).
        (
            "T 2 top-p 0.9 · uncertain",
            Config {
                temperature: Some(2.0),
                top_p: Some(0.9),
                ..Config::default()
            },
        ),
    ]
}
