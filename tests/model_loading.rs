//! Loading weights: truncated, mislabelled, corrupted and crafted safetensors files are errors
//! that name the problem, never a panic or a huge allocation; nor are the sizes a crafted model
//! leads to later (another model's cache, the logits of many forced tokens).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::generate::{GenerateError, Generator, MAX_FORCED_LOGITS};
use nexttoken::model::{ForwardError, LoadError, Model, MAX_HEADER_BYTES};
use nexttoken::tokenizer::Tokenizer;
use shipped::model_path;

#[test]
fn bad_model_bytes_are_errors_naming_the_problem() {
    let good = std::fs::read(model_path()).unwrap();
    assert!(matches!(
        Model::from_safetensors(&good[..4]),
        Err(LoadError::Truncated { .. })
    ));
    assert!(matches!(
        Model::from_safetensors(&good[..100]),
        Err(LoadError::Truncated { .. })
    ));
    let mut bad_len = good.clone();
    bad_len[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        Model::from_safetensors(&bad_len),
        Err(LoadError::Truncated { .. })
    ));
    let n = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    let header = String::from_utf8(good[8..8 + n].to_vec()).unwrap();
    let swap = |from: &str, to: &str| {
        let h = header.replacen(from, to, 1);
        assert_eq!(h.len(), header.len(), "keep the header length");
        let mut b = good.clone();
        b[8..8 + n].copy_from_slice(h.as_bytes());
        Model::from_safetensors(&b)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(swap("\"I8\"", "\"U8\"").contains("dtype"));
    assert!(swap("tok_emb\"", "tok_emx\"").contains("tok_emb"));
    assert!(swap("\"dim\"", "\"dix\"").contains("dim"));
    // Random corruption never panics.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut b = good[..(n + 8 + 4096).min(good.len())].to_vec();
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % (n + 8).min(b.len());
            b[i] = (x >> 32) as u8;
        }
        let _ = Model::from_safetensors(&b);
    }
}

/// A safetensors file by hand: `meta` for `__metadata__`, then F32 tensors `(name, shape,
/// [start, end))` over `data` zero bytes. Offsets are written as given (so they may overlap).
fn crafted(
    meta: &[(&str, usize)],
    tensors: &[(String, Vec<usize>, [usize; 2])],
    data: usize,
) -> Vec<u8> {
    let meta: Vec<String> = meta
        .iter()
        .map(|(k, v)| format!("\"{k}\":\"{v}\""))
        .collect();
    let mut entries = vec![format!("\"__metadata__\":{{{}}}", meta.join(","))];
    for (name, shape, [start, end]) in tensors {
        entries.push(format!(
            "\"{name}\":{{\"dtype\":\"F32\",\"shape\":{shape:?},\"data_offsets\":[{start},{end}]}}"
        ));
    }
    let header = format!("{{{}}}", entries.join(","));
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.resize(bytes.len() + data, 0);
    bytes
}

/// Every tensor of a (vocab, dim, layers, seq) model, laid out one after another, or (`shared`)
/// every block reading the same bytes as block 0.
fn crafted_model(dims: [usize; 4], shared: bool) -> Vec<u8> {
    let [vocab, dim, layers, seq] = dims;
    let mut tensors = Vec::new();
    let mut at = 0;
    let mut put = |name: String, shape: Vec<usize>, at_block0: Option<usize>| -> usize {
        let len = shape.iter().product::<usize>() * 4;
        let start = at_block0.unwrap_or(at);
        tensors.push((name, shape, [start, start + len]));
        if at_block0.is_none() {
            at += len;
        }
        start
    };
    put("tok_emb".into(), vec![vocab, dim], None);
    put("pos_emb".into(), vec![seq, dim], None);
    put("norm_f".into(), vec![dim], None);
    let block: [(&str, Vec<usize>); 6] = [
        ("norm1", vec![dim]),
        ("attn_qkv", vec![3 * dim, dim]),
        ("attn_out", vec![dim, dim]),
        ("norm2", vec![dim]),
        ("mlp_up", vec![4 * dim, dim]),
        ("mlp_down", vec![dim, 4 * dim]),
    ];
    let mut first = Vec::new();
    for l in 0..layers {
        for (i, (name, shape)) in block.iter().enumerate() {
            let reuse = (shared && l > 0).then(|| first[i]);
            let start = put(format!("blocks.{l}.{name}"), shape.clone(), reuse);
            if l == 0 {
                first.push(start);
            }
        }
    }
    let meta = [
        ("vocab_size", vocab),
        ("dim", dim),
        ("n_layers", layers),
        ("n_heads", 1),
        ("seq_len", seq),
    ];
    crafted(&meta, &tensors, at)
}

#[test]
fn crafted_models_cannot_share_bytes_or_ask_for_a_huge_cache() {
    // A well-formed small model loads.
    assert!(Model::from_safetensors(&crafted_model([8, 4, 2, 8], false)).is_ok());
    // The same with every block reading block 0's bytes: refused, naming the overlap.
    let shared = Model::from_safetensors(&crafted_model([8, 4, 2, 8], true));
    let message = shared.err().unwrap().to_string();
    assert!(
        message.contains("overlap") && message.contains("blocks.1."),
        "{message}"
    );
    // The 8 MB file: 64 layers sharing one range and a long context (a 4 GB KV cache).
    let huge = crafted_model([16, 64, 64, 16384], true);
    assert!(huge.len() < 8 << 20);
    assert!(Model::from_safetensors(&huge).is_err());
    // Header dimensions alone asking for more KV cache than the limit: refused before any tensor
    // is read (64 layers × 65536 positions × 64 dims × 8 bytes = 2 GiB).
    let meta = [
        ("vocab_size", 8),
        ("dim", 64),
        ("n_layers", 64),
        ("n_heads", 1),
        ("seq_len", 65536),
    ];
    let message = Model::from_safetensors(&crafted(&meta, &[], 0))
        .err()
        .unwrap()
        .to_string();
    assert!(
        message.contains("seq_len") && message.contains("KV cache"),
        "{message}"
    );
    // A file past the size limit.
    let big = vec![0u8; nexttoken::model::MAX_MODEL_BYTES + 1];
    assert!(matches!(
        Model::from_safetensors(&big),
        Err(LoadError::TooLarge { .. })
    ));
}

/// Each size a header may lie about is refused with the field and its range, before anything of
/// that size is allocated. (All but the header's own length were refused on main already.)
#[test]
fn every_size_a_header_declares_is_checked_before_it_is_allocated() {
    let message = |bytes: &[u8]| Model::from_safetensors(bytes).err().unwrap().to_string();
    assert_eq!(message(&[]), "model file truncated: needs 8 bytes, got 0");
    // a 4 GB header length over a small file
    let mut four_gb = (1u64 << 32).to_le_bytes().to_vec();
    four_gb.extend_from_slice(b"{}");
    assert_eq!(
        message(&four_gb),
        "model file truncated: needs 4294967304 bytes, got 10"
    );
    let small = crafted_model([8, 4, 1, 8], false);
    let n = u64::from_le_bytes(small[..8].try_into().unwrap()) as usize;
    let header = std::str::from_utf8(&small[8..8 + n]).unwrap().to_owned();
    let with_header = |h: &str| {
        let mut b = (h.len() as u64).to_le_bytes().to_vec();
        b.extend_from_slice(h.as_bytes());
        b.extend_from_slice(&small[8 + n..]);
        b
    };
    // a tensor whose shape's product overflows, then one past the data
    let overflow = header.replacen("\"shape\":[8, 4]", "\"shape\":[4294967296, 4294967296]", 1);
    assert!(
        message(&with_header(&overflow)).starts_with(
            "tensor `tok_emb`: 128 bytes do not match shape [4294967296, 4294967296] of F32"
        ),
        "{}",
        message(&with_header(&overflow))
    );
    let past = header.replacen(
        "\"data_offsets\":[0,128]",
        "\"data_offsets\":[0,4294967296]",
        1,
    );
    assert!(message(&with_header(&past))
        .contains("tensor `tok_emb`: data_offsets [0, 4294967296] must satisfy start ≤ end ≤"));
    // The header's own length: a well-formed model whose header is padded past the limit (JSON
    // whitespace) loaded on main, the whole header parsed into a tree; now it is refused first.
    let padded = format!("{}{}", header, " ".repeat(MAX_HEADER_BYTES as usize));
    assert_eq!(
        message(&with_header(&padded)),
        format!(
            "safetensors header: its length ({} bytes, the first 8 bytes of the file) must be at most {MAX_HEADER_BYTES}",
            padded.len()
        )
    );
    let just_fits = format!("{}{}", header, " ".repeat(MAX_HEADER_BYTES as usize - n));
    assert!(Model::from_safetensors(&with_header(&just_fits)).is_ok());
}

/// A cache made by another model (fewer layers, or a shorter context) is an error naming it, not
/// an index out of bounds (main panicked), and the model's own cache works after it.
#[test]
fn a_cache_from_another_model_is_refused() {
    let model = Model::from_safetensors(&crafted_model([8, 4, 2, 8], false)).unwrap();
    let mut logits = vec![0.0; 8];
    for other in [[8, 4, 1, 8], [8, 4, 2, 4], [8, 8, 2, 8]] {
        let other = Model::from_safetensors(&crafted_model(other, false)).unwrap();
        let mut cache = other.new_cache();
        assert_eq!(
            model.forward(1, &mut cache, &mut logits),
            Err(ForwardError::CacheMismatch)
        );
        assert!(cache.is_empty());
    }
    let mut own = model.new_cache();
    assert_eq!(model.forward(1, &mut own, &mut logits), Ok(()));
    assert_eq!(own.len(), 1);
}

/// A tokenizer.json of `n` tokens: "a", then "t1" … (no merges).
fn tokenizer_of(n: usize) -> Tokenizer {
    let vocab: Vec<String> = std::iter::once("\"a\":0".to_owned())
        .chain((1..n).map(|i| format!("\"t{i}\":{i}")))
        .collect();
    let json = format!(
        "{{\"model\":{{\"type\":\"BPE\",\"byte_fallback\":true,\"vocab\":{{{}}},\"merges\":[]}}}}",
        vocab.join(",")
    );
    Tokenizer::from_json(&json).unwrap()
}

/// forceMany returns a row of logits per token: over a large vocabulary and a long context that
/// was (1 + tokens) × vocab floats with no bound (on wasm32 the product wrapped). Past
/// MAX_FORCED_LOGITS it is refused up front, naming the count allowed, and nothing is appended.
#[test]
fn force_many_refuses_more_logits_than_the_limit() {
    let vocab = 40_000;
    let model = Model::from_safetensors(&crafted_model([vocab, 1, 1, 1024], false)).unwrap();
    let mut gen = Generator::new(model, tokenizer_of(vocab)).unwrap();
    gen.set_prompt("a").unwrap();
    gen.max_new_tokens = 1024;
    let allowed = MAX_FORCED_LOGITS / vocab - 1;
    let refused = gen.force_many(&vec![1; allowed + 1]).err().unwrap();
    assert!(matches!(refused, GenerateError::Argument { .. }));
    assert_eq!(
        refused.to_string(),
        format!("forceMany tokens must be at most {allowed} token ids for a vocabulary of {vocab} (a row of logits each, at most {MAX_FORCED_LOGITS} values in all), got {} token ids", allowed + 1)
    );
    assert_eq!(gen.tokens(), &[0]);
    let (outs, rows) = gen.force_many(&vec![1; allowed]).unwrap();
    assert_eq!((outs.len(), rows.len()), (allowed, allowed * vocab));
}
