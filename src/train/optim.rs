//! AdamW and gradient clipping over the flat parameter vector.

use super::params::Layout;

/// AdamW state and schedule.
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    pub fn update(&mut self, params: &mut [f32], grads: &[f32], layout: &Layout, lr: f32, wd: f32) {
        self.step += 1;
        let (b1, b2, eps) = (0.9f32, 0.95f32, 1e-8f32);
        let bc1 = 1.0 - b1.powi(self.step as i32);
        let bc2 = 1.0 - b2.powi(self.step as i32);
        for s in &layout.slots {
            let decay = if s.decay { wd } else { 0.0 };
            for i in s.offset..s.offset + s.len() {
                let g = grads[i];
                self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
                self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
                let mhat = self.m[i] / bc1;
                let vhat = self.v[i] / bc2;
                params[i] -= lr * (mhat / (vhat.sqrt() + eps) + decay * params[i]);
            }
        }
    }
}

/// Scales `grads` so their global L2 norm is at most `max`; returns the norm.
pub fn clip(grads: &mut [f32], max: f32) -> f32 {
    let norm = grads
        .iter()
        .map(|g| (*g as f64) * (*g as f64))
        .sum::<f64>()
        .sqrt() as f32;
    if norm > max {
        let s = max / norm;
        for g in grads.iter_mut() {
            *g *= s;
        }
    }
    norm
}
