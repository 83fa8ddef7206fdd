//! Loading weights: truncated, mislabelled, corrupted and crafted safetensors files are errors
//! that name the problem, never a panic or a huge allocation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::model::{LoadError, Model};
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
