//! What the model tests share: the weights under test (the shipped ones, or `NEXTTOKEN_MODEL`,
//! a new export checked here before it replaces them) and the committed tokenizer.
#![allow(dead_code)] // each test crate uses some of these

use nexttoken::generate::Generator;
use nexttoken::model::Model;
use nexttoken::tokenizer::Tokenizer;

pub const SHIPPED_MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/model/model.safetensors");
pub const TOKENIZER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/model/tokenizer.json");

/// The weights under test: the shipped ones, or `NEXTTOKEN_MODEL`.
pub fn model_path() -> String {
    std::env::var("NEXTTOKEN_MODEL").unwrap_or_else(|_| SHIPPED_MODEL.to_owned())
}

pub fn shipped() -> (Model, Tokenizer) {
    let m = Model::from_safetensors(&std::fs::read(model_path()).unwrap()).unwrap();
    let t = Tokenizer::from_json(&std::fs::read_to_string(TOKENIZER).unwrap()).unwrap();
    (m, t)
}

pub fn generator() -> Generator {
    Generator::from_bytes(
        &std::fs::read(model_path()).unwrap(),
        &std::fs::read_to_string(TOKENIZER).unwrap(),
    )
    .unwrap()
}
