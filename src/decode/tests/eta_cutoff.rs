//! eta_cutoff (HF's EtaLogitsWarper): the cut min(η, √η·e^(−H)) follows the entropy H of the
//! distribution it sees. Reference numbers computed in f64 by Python's math module.

use super::*;

/// Logits 2, 1, 0.5, −1, −3: p = 0.606968, 0.223291, 0.135433, 0.030219, 0.004090 and
/// H = 1.0368260 nats. η = 0.25: √η·e^(−H) = 0.5 · 0.354578 = 0.1772892 < η, so the cut is
/// the entropy's: ids 0 and 1 stay (renormalised to 0.731059, 0.268941), where epsilon_cutoff
/// 0.25 keeps only id 0.
#[test]
fn eta_cuts_below_the_entropy_scaled_threshold() {
    let logits = [2.0, 1.0, 0.5, -1.0, -3.0];
    let eta = Config {
        eta_cutoff: Some(0.25),
        ..cfg()
    };
    let t = step(&logits, &eta).unwrap();
    let stage = t.stages.iter().find(|s| s.name == "eta_cutoff").unwrap();
    assert!(stage.active);
    assert_eq!(stage.value, Some(0.25));
    let cut = stage.threshold.unwrap();
    assert!((cut - 0.177_289_167_232_430_5).abs() < 1e-6, "cut {cut}");
    assert_eq!(stage.removed_count, 3);
    let p = probs(&t);
    assert!(close(p[0].1, 0.731_058_578_630_004_9) && close(p[1].1, 0.268_941_421_369_995_1));
    for c in t.candidates.iter().filter(|c| c.id >= 2) {
        assert_eq!(c.removed_by, Some("eta_cutoff"));
        assert_eq!(c.p, 0.0);
    }
    let epsilon = Config {
        epsilon_cutoff: Some(0.25),
        ..cfg()
    };
    assert_eq!(
        step(&logits, &epsilon)
            .unwrap()
            .stages
            .last()
            .unwrap()
            .kept_count,
        1
    );
    // η = 0.01 < √η·e^(−H) = 0.0354578: the cut is η itself and only id 4 (0.00409) goes.
    let small = Config {
        eta_cutoff: Some(0.01),
        ..cfg()
    };
    let t = step(&logits, &small).unwrap();
    let stage = t.stages.iter().find(|s| s.name == "eta_cutoff").unwrap();
    assert_eq!((stage.threshold, stage.removed_count), (Some(0.01), 1));
}

/// HF runs it last, after epsilon; listed only when on (an HF trace without it is unchanged),
/// at least `min_keep` tokens survive, and other engines refuse it by name.
#[test]
fn eta_is_hf_only_last_and_keeps_min_keep() {
    let logits = [2.0, 1.0, 0.5, -1.0, -3.0];
    let names = |c: &Config| -> Vec<&str> {
        step(&logits, c)
            .unwrap()
            .stages
            .iter()
            .map(|s| s.name)
            .collect()
    };
    assert!(!names(&cfg()).contains(&"eta_cutoff"));
    let on = Config {
        eta_cutoff: Some(0.25),
        ..cfg()
    };
    assert_eq!(names(&on).last(), Some(&"eta_cutoff"));
    let keep3 = Config {
        min_keep: Some(3),
        ..on.clone()
    };
    assert_eq!(
        step(&logits, &keep3)
            .unwrap()
            .stages
            .last()
            .unwrap()
            .kept_count,
        3
    );
    for engine in ["llama.cpp", "vllm"] {
        let other = Config {
            engine: Engine::from_name(engine),
            ..on.clone()
        };
        let message = step(&logits, &other).unwrap_err().to_string();
        assert!(message.contains("eta_cutoff"), "{message}");
    }
    for bad in [-0.1, 1.0, f64::NAN] {
        let c = Config {
            eta_cutoff: Some(bad),
            ..cfg()
        };
        let message = step(&logits, &c).unwrap_err().to_string();
        assert!(
            message.contains("eta_cutoff") && message.contains("[0, 1)"),
            "{message}"
        );
    }
}
