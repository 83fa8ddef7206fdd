//! A temperature after a penalty over a short history (the page's sliders): the first pass keeps
//! per-block sums and the normalisers after the penalty correct only the changed blocks
//! (softmax/blocks.rs). Whatever path runs, the trace is the one the full passes give.

use super::*;

/// Peaked logits with a clear maximum at id n/2 (so a history without it does not move the max,
/// and the first block's sums are small enough for a changed logit to change their bits).
fn peaked(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            if i == n / 2 {
                20.0
            } else {
                ((i as u64 * 2_654_435_761) % 10_007) as f32 * 1.1e-3 - 5.5
            }
        })
        .collect()
}

/// The same configuration with a bias of +0 on one id of every block of 1,024: the same
/// distribution (l + 0 = l), but every block changed, so the normalisers take full passes.
fn every_block_touched(c: &Config, n: usize) -> Config {
    Config {
        logit_bias: Some((0..n as u32).step_by(1024).map(|id| (id, 0.0)).collect()),
        ..c.clone()
    }
}

#[test]
fn the_corrected_block_sums_give_the_full_passes_trace() {
    for n in [1_500usize, 9_003, 20_003] {
        let logits = peaked(n);
        // Ids in the first block only (the blocks path runs from 4 blocks on), and one at the end.
        let history = vec![7u32, 9, 1_000, 7, n as u32 - 1];
        for (engine, t, top_k, min_p) in [
            ("hf", 1.2, 100, 0.1),
            ("hf", 0.7, 0, 0.0),
            ("hf", 2.0, 40, 0.0),
            ("vllm", 1.5, 0, 0.05),
            ("vllm", 0.8, 1_000, 0.0),
        ] {
            let c = Config {
                engine: Engine::from_name(engine),
                temperature: Some(t),
                top_k: Some(top_k),
                min_p: Some(min_p),
                repetition_penalty: Some(1.15),
                history: Some(history.clone()),
                trace_top: Some(50),
                draw: Some(n as u64),
                ..cfg()
            };
            let fast = step(&logits, &c).unwrap();
            let full = step(&logits, &every_block_touched(&c, n)).unwrap();
            let what = format!("n {n} {engine} T {t} top-k {top_k} min-p {min_p}");
            assert_eq!(fast.token, full.token, "{what}");
            assert_eq!(
                format!("{:?}", fast.candidates),
                format!("{:?}", full.candidates),
                "{what}"
            );
            assert_eq!(
                (fast.entropy_bits.to_bits(), fast.raw_entropy_bits.to_bits()),
                (full.entropy_bits.to_bits(), full.raw_entropy_bits.to_bits()),
                "{what}"
            );
            assert_eq!(
                (fast.kept_count, fast.unlisted_mass.to_bits()),
                (full.kept_count, full.unlisted_mass.to_bits()),
                "{what}"
            );
        }
    }
}
