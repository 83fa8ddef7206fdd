//! The trainer (only with the `train` feature): tokenizer training, the
//! batch model with its backward pass, data, and export to safetensors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // train-only tool code; failures abort the run with a message
#![allow(clippy::indexing_slicing)] // native only, never in the wasm build; its shapes are fixed by the run it starts

mod attention;
mod backward;
pub mod bpe;
pub mod data;
pub mod export;
pub mod fluency;
pub mod kn3;
pub mod nn;
mod ops;
mod optim;
mod params;
