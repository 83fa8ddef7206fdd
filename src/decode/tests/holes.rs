//! A few ids removed from a large vocabulary (bans, an end id held back): the final weights stay
//! stored nowhere and the final pass skips the holes (final_pass.rs `with_normaliser`). The
//! token, every listed number and the entropy must be those of the path that writes every key.

use super::*;

/// Peaked logits over `n` ids: a bulk of small logits and ten strong candidates, the strongest
/// at `top`.
fn peaked(n: usize, top: usize) -> Vec<f32> {
    let mut logits: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1013) as f32 * -0.004)
        .collect();
    for j in 0..10 {
        let id = (top + j * 977) % n;
        logits[id] = 9.0 - j as f32 * 0.6;
    }
    logits
}

#[test]
fn removing_a_few_ids_gives_the_same_step_as_writing_every_key() {
    let mut decoder = Decoder::default();
    let mut skipped = 0;
    for n in [5_000usize, 40_000] {
        for top in [0, n / 2, n - 1] {
            let logits = peaked(n, top);
            let held_back = Config {
                min_new_tokens: Some(4),
                eos_token_id: Some(vec![top as u32, 0, n as u32 - 1]),
                history: Some(vec![5, 6]),
                history_prompt_len: Some(1),
                ..cfg()
            };
            let bans = Config {
                logit_bias: Some(vec![
                    (top as u32, f64::NEG_INFINITY),
                    (3, f64::NEG_INFINITY),
                    (4, f64::NEG_INFINITY),
                    ((top as u32 + 977) % n as u32, 2.5),
                ]),
                ..cfg()
            };
            let tempered = Config {
                temperature: Some(0.8),
                engine: Some(Engine::LlamaCpp),
                ..held_back.clone()
            };
            for config in [held_back, bans, tempered] {
                for draw in 0..60 {
                    let c = Config {
                        draw: Some(draw),
                        trace_top: Some(20),
                        ..config.clone()
                    };
                    let got = decoder.step(&logits, &c).unwrap();
                    skipped += usize::from(!decoder.work.holes.is_empty());
                    // The max the final weights are taken at is that of the ids left.
                    let w = &decoder.work;
                    let left = w.kept.iter().map(|&id| w.processed[id as usize]);
                    let want_max = left.fold(f32::NEG_INFINITY, f32::max);
                    assert_eq!(w.known_max(), Some(want_max), "{n} {top} {c:?}");
                    // Asking for an id's rank reads every kept key: the path that writes them.
                    let every_key = Config {
                        trace_ids: Some(vec![1]),
                        ..c.clone()
                    };
                    let want = step(&logits, &every_key).unwrap();
                    let at = format!("n {n} top {top} draw {draw} {c:?}");
                    assert_eq!(got.token, want.token, "{at}");
                    assert_eq!(
                        got.entropy_bits.to_bits(),
                        want.entropy_bits.to_bits(),
                        "{at}"
                    );
                    let head = |t: &Trace| -> Vec<(u32, usize, u64, u64, Option<&str>)> {
                        t.candidates
                            .iter()
                            .filter(|c| c.rank < 20)
                            .map(|c| (c.id, c.rank, c.p.to_bits(), c.cum.to_bits(), c.removed_by))
                            .collect()
                    };
                    assert_eq!(head(&got), head(&want), "{at}");
                    // Past the head, the chosen token's cum is the draw's own sum in one and the
                    // ranking of asked-for ids' in the other: equal but for the last bits.
                    let chosen = |t: &Trace| {
                        let c = t.candidates.iter().find(|c| c.id == t.token).unwrap();
                        (c.rank, c.p.to_bits(), c.cum)
                    };
                    let (g, w) = (chosen(&got), chosen(&want));
                    assert_eq!((g.0, g.1), (w.0, w.1), "{at}");
                    assert!((g.2 - w.2).abs() <= 1e-12, "{at} {g:?} {w:?}");
                }
            }
        }
    }
    // Most of these steps keep the weights unwritten to the end (a draw whose walk does not
    // cross among the gated keys writes them after all).
    assert!(skipped > 400, "{skipped}");
}
