//! The trainer's backward pass against finite differences, and a CI-sized
//! run that must lower the loss. Needs `--features train`.
#![cfg(feature = "train")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::model::Config;
use nexttoken::train::nn::{self, Adam, Net, Rng};

fn tiny() -> Config {
    Config {
        vocab_size: 23,
        dim: 16,
        n_layers: 2,
        n_heads: 2,
        seq_len: 8,
    }
}

/// The tiny net with weights larger than the init (so every path carries a
/// visible gradient) and a random 2 × 8 batch, from `seed`.
fn tiny_batch(seed: u64) -> (Net, Vec<f32>, Vec<u32>, Vec<u32>) {
    let c = tiny();
    let net = Net::new(c);
    let mut params = nn::init_params(&c, &net.layout, 7);
    let mut rng = Rng(seed);
    for p in params.iter_mut() {
        *p += rng.normal() * 0.2;
    }
    let x = (0..16).map(|_| rng.below(c.vocab_size) as u32).collect();
    let y = (0..16).map(|_| rng.below(c.vocab_size) as u32).collect();
    (net, params, x, y)
}

/// Central differences at six entries of every parameter tensor against the
/// analytic gradient `grads` of `loss`; returns the worst relative error.
fn check_gradients(
    net: &Net,
    params: &mut [f32],
    grads: &[f32],
    loss: impl Fn(&[f32]) -> f64,
) -> f64 {
    let mut worst = 0.0f64;
    for s in &net.layout.slots {
        for k in 0..6 {
            let i = s.offset + (k * 7919) % s.len();
            let orig = params[i];
            let h = 1e-2f32;
            params[i] = orig + h;
            let lp = loss(params);
            params[i] = orig - h;
            let lm = loss(params);
            params[i] = orig;
            let num = (lp - lm) / (2.0 * h as f64);
            let ana = grads[i] as f64;
            let err = (num - ana).abs() / (num.abs() + ana.abs()).max(1e-3);
            assert!(
                err < 0.05,
                "{} [{}]: numeric {num:.6} analytic {ana:.6}",
                s.name,
                i - s.offset
            );
            worst = worst.max(err);
        }
    }
    worst
}

#[test]
fn backward_matches_finite_differences() {
    let (net, mut params, x, y) = tiny_batch(3);
    let (b, t) = (2, 8);
    let loss = |p: &[f32]| -> f64 {
        let mut a = net.forward(p, &x, b, t);
        net.loss_and_probs(&mut a, &y) as f64
    };
    let mut acts = net.forward(&params, &x, b, t);
    net.loss_and_probs(&mut acts, &y);
    let mut grads = vec![0.0; net.layout.total];
    net.backward(&params, &acts, &x, &y, &mut grads);
    let worst = check_gradients(&net, &mut params, &grads, loss);
    println!("worst relative gradient error {worst:.4}");
}

#[test]
fn a_few_steps_lower_the_loss() {
    let c = Config {
        vocab_size: 40,
        dim: 32,
        n_layers: 2,
        n_heads: 4,
        seq_len: 16,
    };
    let net = Net::new(c);
    let mut params = nn::init_params(&c, &net.layout, 1);
    let mut adam = Adam::new(net.layout.total);
    let mut grads = vec![0.0; net.layout.total];
    // A tiny repetitive "text": the model should learn it quickly.
    let text: Vec<u32> = "中国的首都是北京。TypeScript 是 JavaScript 的超集。"
        .chars()
        .map(|ch| (ch as u32) % 40)
        .collect();
    let t = c.seq_len;
    let mut first = 0.0;
    let mut last = 0.0;
    for step in 0..60 {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for bi in 0..4 {
            let s = (step * 3 + bi * 5) % (text.len() - t - 1);
            x.extend_from_slice(&text[s..s + t]);
            y.extend_from_slice(&text[s + 1..s + t + 1]);
        }
        let mut acts = net.forward(&params, &x, 4, t);
        let loss = net.loss_and_probs(&mut acts, &y);
        net.backward(&params, &acts, &x, &y, &mut grads);
        nn::clip(&mut grads, 1.0);
        adam.update(&mut params, &grads, &net.layout, 3e-3, 0.0);
        if step == 0 {
            first = loss;
        }
        last = loss;
    }
    assert!(last < 0.5 * first, "loss {first} -> {last}");
}

/// The same check through dropout: a fixed seed fixes the masks, so the loss
/// is a smooth function of the parameters and the backward pass must follow
/// the forward's masks (embedding, attention probabilities, both residual
/// branches).
#[test]
fn backward_matches_finite_differences_with_dropout() {
    let (net, mut params, x, y) = tiny_batch(5);
    let (b, t) = (2, 8);
    let drop = Some(nn::Dropout { p: 0.3, seed: 11 });
    let loss = |p: &[f32]| -> f64 {
        let mut a = net.forward_train(p, &x, b, t, drop);
        net.loss_and_probs(&mut a, &y) as f64
    };
    // Dropout changes the loss (the masks are on), and the same seed repeats it.
    let plain = {
        let mut a = net.forward(&params, &x, b, t);
        net.loss_and_probs(&mut a, &y) as f64
    };
    assert_ne!(loss(&params), plain);
    assert_eq!(loss(&params), loss(&params));
    let mut acts = net.forward_train(&params, &x, b, t, drop);
    net.loss_and_probs(&mut acts, &y);
    let mut grads = vec![0.0; net.layout.total];
    net.backward(&params, &acts, &x, &y, &mut grads);
    let worst = check_gradients(&net, &mut params, &grads, loss);
    println!("worst relative gradient error with dropout {worst:.4}");
}
