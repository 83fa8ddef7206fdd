//! Byte-fallback BPE tokenizer read from a Hugging Face `tokenizer.json`.
//!
//! The scheme Llama-style tokenizers use: text is split into characters,
//! a character missing from the vocabulary becomes its UTF-8 bytes
//! (`<0xE4>` tokens), then merges apply lowest rank first. There is no
//! normalizer and no pre-tokenizer, so `decode(encode(s)) == s` for every
//! string. The merge loop mirrors the `tokenizers` crate's `Word::merge_all`
//! step for step; `tests/tokenizer.rs` checks equality on the whole corpus.

mod encode;
pub mod json;

use std::collections::HashMap;
use std::fmt;

use json::Json;

/// Why a `tokenizer.json` could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenizerError {
    /// The text is not JSON.
    Json(String),
    /// A field is missing or holds something this tokenizer cannot use.
    Field {
        field: &'static str,
        problem: String,
    },
}

impl fmt::Display for TokenizerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenizerError::Json(e) => write!(f, "tokenizer.json is not valid JSON: {e}"),
            TokenizerError::Field { field, problem } => {
                write!(f, "tokenizer.json field `{field}`: {problem}")
            }
        }
    }
}

impl std::error::Error for TokenizerError {}

fn field(field: &'static str, problem: impl Into<String>) -> TokenizerError {
    TokenizerError::Field {
        field,
        problem: problem.into(),
    }
}

/// Text decoded from token ids: the complete characters, plus the bytes of
/// a character still being spelled out by byte tokens (never shown as `�`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    pub pending: Vec<u8>,
}

/// The loaded tokenizer.
#[derive(Clone, Debug)]
pub struct Tokenizer {
    /// id → token string as written in the vocabulary (`<0xE4>` for bytes).
    tokens: Vec<String>,
    /// id → the bytes the token stands for.
    bytes: Vec<Vec<u8>>,
    ids: HashMap<String, u32>,
    /// (left, right) → (rank, merged id).
    merges: HashMap<(u32, u32), (u32, u32)>,
    /// byte → its `<0xNN>` token, if the vocabulary has one.
    byte_ids: [Option<u32>; 256],
    eos: Option<u32>,
}

/// `<0xNN>` → NN
fn byte_token(s: &str) -> Option<u8> {
    let hex = s.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

impl Tokenizer {
    /// Reads the subset of `tokenizer.json` this project writes: a BPE model
    /// with `byte_fallback: true`, no normalizer, no pre-tokenizer.
    pub fn from_json(text: &str) -> Result<Tokenizer, TokenizerError> {
        let root = json::parse(text).map_err(TokenizerError::Json)?;
        for key in ["normalizer", "pre_tokenizer"] {
            if !matches!(root.get(key), None | Some(Json::Null)) {
                return Err(field(
                    if key == "normalizer" {
                        "normalizer"
                    } else {
                        "pre_tokenizer"
                    },
                    "must be null (this tokenizer encodes text as given)",
                ));
            }
        }
        if root
            .get("added_tokens")
            .and_then(Json::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            return Err(field(
                "added_tokens",
                "must be empty (special tokens live in the vocabulary only)",
            ));
        }
        let model = root.get("model").ok_or_else(|| field("model", "missing"))?;
        if model.get("type").and_then(Json::as_str) != Some("BPE") {
            return Err(field("model.type", "must be \"BPE\""));
        }
        if model.get("byte_fallback").and_then(Json::as_bool) != Some(true) {
            return Err(field("model.byte_fallback", "must be true"));
        }
        for key in ["continuing_subword_prefix", "end_of_word_suffix", "dropout"] {
            if !matches!(model.get(key), None | Some(Json::Null)) {
                return Err(field("model", format!("`{key}` must be null")));
            }
        }
        let vocab = model
            .get("vocab")
            .and_then(Json::as_object)
            .ok_or_else(|| field("model.vocab", "missing or not an object"))?;
        let n = vocab.len();
        // n entries with distinct ids in 0..n fill every slot
        let mut slots: Vec<Option<String>> = vec![None; n];
        let mut ids = HashMap::with_capacity(n);
        for (tok, id) in vocab {
            // (try_from: on wasm32 `as usize` wrapped 2^40 to 0, refused as "id 0 is used twice")
            let id = id.as_u64().and_then(|i| usize::try_from(i).ok());
            match id.map(|i| (i, slots.get_mut(i))) {
                Some((i, Some(slot @ None))) => {
                    *slot = Some(tok.clone());
                    ids.insert(tok.clone(), i as u32);
                }
                Some((i, Some(Some(_)))) => {
                    return Err(field("model.vocab", format!("id {i} is used twice")));
                }
                _ => {
                    return Err(field(
                        "model.vocab",
                        format!("id of {tok:?} must be an integer in 0..{n}"),
                    ))
                }
            }
        }
        let tokens: Vec<String> = slots.into_iter().map(Option::unwrap_or_default).collect();
        let mut byte_ids = [None; 256];
        let bytes: Vec<Vec<u8>> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| match byte_token(t) {
                Some(b) => {
                    if let Some(slot) = byte_ids.get_mut(usize::from(b)) {
                        *slot = Some(i as u32);
                    }
                    vec![b]
                }
                None => t.as_bytes().to_vec(),
            })
            .collect();
        let merges_json = model
            .get("merges")
            .and_then(Json::as_array)
            .ok_or_else(|| field("model.merges", "missing or not an array"))?;
        let mut merges = HashMap::with_capacity(merges_json.len());
        // the merged token's text, one buffer for every entry (no allocation per merge)
        let mut joined = String::new();
        for (rank, m) in merges_json.iter().enumerate() {
            let (a, b) = match m {
                Json::Array(p) if p.len() == 2 => match p.as_slice() {
                    [Json::String(a), Json::String(b)] => (a.as_str(), b.as_str()),
                    _ => {
                        return Err(field(
                            "model.merges",
                            format!("entry {rank} must be two strings"),
                        ))
                    }
                },
                // The older "a b" form; unambiguous only without spaces in tokens.
                Json::String(s) => match s.split_once(' ') {
                    Some((a, b)) => (a, b),
                    None => {
                        return Err(field("model.merges", format!("entry {rank} has no space")))
                    }
                },
                _ => {
                    return Err(field(
                        "model.merges",
                        format!("entry {rank} must be a pair"),
                    ))
                }
            };
            let look = |t: &str| {
                ids.get(t).copied().ok_or_else(|| {
                    field(
                        "model.merges",
                        format!("entry {rank} uses {t:?}, which is not in the vocabulary"),
                    )
                })
            };
            joined.clear();
            joined.push_str(a);
            joined.push_str(b);
            let (ia, ib, inew) = (look(a)?, look(b)?, look(&joined)?);
            merges.insert((ia, ib), (rank as u32, inew));
        }
        let eos = ids.get("</s>").copied();
        Ok(Tokenizer {
            tokens,
            bytes,
            ids,
            merges,
            byte_ids,
            eos,
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The end-of-sequence token (`</s>`), which ends every training paragraph.
    pub fn eos_id(&self) -> Option<u32> {
        self.eos
    }

    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The vocabulary entry, e.g. `北京` or `<0xE4>`.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// The bytes a token stands for.
    pub fn token_bytes(&self, id: u32) -> Option<&[u8]> {
        self.bytes.get(id as usize).map(Vec::as_slice)
    }

    /// Whether the token is a single byte (`<0xNN>`), i.e. possibly a
    /// fragment of a character.
    pub fn is_byte(&self, id: u32) -> bool {
        self.token(id).and_then(byte_token).is_some()
    }

    /// Decodes ids to text. Bytes that end mid-character are returned as
    /// `pending`; ids outside the vocabulary are an error naming the id.
    pub fn decode(&self, ids: &[u32]) -> Result<Decoded, String> {
        let mut bytes = Vec::new();
        for &id in ids {
            let b = self.token_bytes(id).ok_or_else(|| {
                format!(
                    "token id {id} is outside the vocabulary (0..{})",
                    self.vocab_size()
                )
            })?;
            bytes.extend_from_slice(b);
        }
        let (text, pending) = split_utf8(&bytes);
        Ok(Decoded { text, pending })
    }
}

/// Splits bytes into complete text and the trailing bytes of an unfinished
/// character. Bytes that can never form a character (a stray continuation
/// byte, say) are written as `<0xNN>`, the token's own name, rather than `�`.
pub fn split_utf8(mut bytes: &[u8]) -> (String, Vec<u8>) {
    let mut text = String::new();
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                text.push_str(s);
                return (text, Vec::new());
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(good).unwrap_or_default());
                match e.error_len() {
                    None => return (text, rest.to_vec()),
                    Some(n) => {
                        // (n ≤ rest.len(): std's error_len counts bytes of `rest`)
                        let Some((bad, tail)) = rest.split_at_checked(n) else {
                            return (text, rest.to_vec());
                        };
                        for b in bad {
                            text.push_str(&format!("<0x{b:02X}>"));
                        }
                        bytes = tail;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_utf8_keeps_an_unfinished_character_pending() {
        let b = "北京".as_bytes();
        assert_eq!(split_utf8(&b[..4]), ("北".to_owned(), vec![b[3]]));
        assert_eq!(split_utf8(&[0x80, b'a']), ("<0x80>a".to_owned(), vec![]));
    }
}
