//! nexttoken: see how a language model answers one token at a time.
//!
//! The chapter (推理生成) in code: the model computes **logits** for every token in its vocabulary;
//! **softmax** turns them into probabilities; a decoding strategy — **greedy** or **sampling**,
//! shaped by **temperature**, **top-k**, **top-p**, **min-p** and penalties — picks one token with a
//! uniform random number u; the token is appended and the loop repeats until a stop condition.
//!
//! [`decode::step`] is that one choice, exact on the full vocabulary, deterministic under a seed,
//! and explained by a [`decode::Trace`] of every stage. The `wasm` module is the thin JavaScript
//! adapter (`step(logits, config)` for the page).

// A panic in wasm kills the page's instance for good: code that runs there states each bound
// (iterators, `get` with an error) instead of indexing. `train` (native only) opts out.
#![cfg_attr(not(test), deny(clippy::indexing_slicing))]

pub mod decode;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub mod generate;
pub mod model;
pub mod tokenizer;
#[cfg(feature = "train")]
pub mod train;
