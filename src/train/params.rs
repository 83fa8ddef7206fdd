//! The trainer's parameters: one flat vector, `Layout` names its slices,
//! and a small seeded RNG for initialisation, batching and dropout.

use crate::model::Config;

/// Where one named tensor sits in the flat parameter vector.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub shape: Vec<usize>,
    pub offset: usize,
    /// Matrices get weight decay; norm gains do not.
    pub decay: bool,
}

impl Slot {
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Offsets of each tensor; the order is also the safetensors order.
#[derive(Clone, Debug)]
pub struct Layout {
    pub slots: Vec<Slot>,
    pub total: usize,
}

impl Layout {
    pub fn new(c: &Config) -> Layout {
        let d = c.dim;
        let mut slots = Vec::new();
        let mut total = 0;
        let mut add = |name: String, shape: Vec<usize>, decay: bool| {
            let len: usize = shape.iter().product();
            slots.push(Slot {
                name,
                shape,
                offset: total,
                decay,
            });
            total += len;
        };
        add("tok_emb".into(), vec![c.vocab_size, d], true);
        add("pos_emb".into(), vec![c.seq_len, d], false);
        for l in 0..c.n_layers {
            add(format!("blocks.{l}.norm1"), vec![d], false);
            add(format!("blocks.{l}.attn_qkv"), vec![3 * d, d], true);
            add(format!("blocks.{l}.attn_out"), vec![d, d], true);
            add(format!("blocks.{l}.norm2"), vec![d], false);
            add(format!("blocks.{l}.mlp_up"), vec![4 * d, d], true);
            add(format!("blocks.{l}.mlp_down"), vec![d, 4 * d], true);
        }
        add("norm_f".into(), vec![d], false);
        Layout { slots, total }
    }

    pub fn get(&self, name: &str) -> &Slot {
        // Names are generated above; a miss is a programming error in this
        // train-only module.
        #[allow(clippy::expect_used)]
        self.slots
            .iter()
            .find(|s| s.name == name)
            .expect("known tensor name")
    }
}

/// Deterministic generator (SplitMix64) so a seed fixes init and batches.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f32 {
        let u1 = self.uniform().max(1e-300);
        let u2 = self.uniform();
        ((-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()) as f32
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

pub fn init_params(c: &Config, layout: &Layout, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    let mut p = vec![0.0f32; layout.total];
    let resid_scale = 1.0 / (2.0 * c.n_layers as f32).sqrt();
    for s in &layout.slots {
        let dst = &mut p[s.offset..s.offset + s.len()];
        if s.shape.len() == 1 {
            dst.fill(1.0);
            continue;
        }
        let mut std = 0.02;
        if s.name.ends_with("attn_out") || s.name.ends_with("mlp_down") {
            std *= resid_scale;
        }
        for v in dst.iter_mut() {
            *v = rng.normal() * std;
        }
    }
    p
}
