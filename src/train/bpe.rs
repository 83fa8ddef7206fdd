//! Trains the byte-fallback BPE tokenizer with the `tokenizers` crate and
//! writes it as a Llama-style `tokenizer.json` (no normalizer, no
//! pre-tokenizer: the text is encoded exactly as given, so every string
//! round-trips, spaces included).

use std::collections::{HashMap, HashSet};

use tokenizers::models::bpe::{BpeTrainerBuilder, BPE};
use tokenizers::Trainer;

/// Ids 0..3 are reserved; `</s>` ends every paragraph in the training stream.
pub const SPECIALS: [&str; 3] = ["<unk>", "<s>", "</s>"];

/// Splits a line into the pieces the BPE trainer counts pairs in. Encoding
/// later works on the whole line, but learning merges only inside these
/// pieces keeps tokens from gluing words to punctuation (「超集，」) or to
/// the following space, which would hide the chapter's tokens.
pub fn training_pieces(line: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut cur = String::new();
    for ch in line.chars() {
        let punct = is_punct(ch);
        if punct || ch == ' ' || ch == '\t' {
            // A run of spaces stays one piece; any other piece ends here.
            if !(cur.is_empty() || ch == ' ' && cur.chars().all(|c| c == ' ')) {
                pieces.push(std::mem::take(&mut cur));
            }
            if punct {
                pieces.push(ch.to_string());
                continue;
            }
        } else if let Some(last) = cur.chars().last() {
            // A script change starts a new piece (「TypeScript是」 stays two).
            if last != ' ' && is_cjk(last) != is_cjk(ch) {
                pieces.push(std::mem::take(&mut cur));
            }
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    pieces
}

fn is_cjk(c: char) -> bool {
    ('\u{2E80}'..='\u{9FFF}').contains(&c) || ('\u{F900}'..='\u{FAFF}').contains(&c)
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || ('\u{3000}'..='\u{303F}').contains(&c)
        || ('\u{FF00}'..='\u{FF0F}').contains(&c)
        || ('\u{FF1A}'..='\u{FF20}').contains(&c)
        || ('\u{FF3B}'..='\u{FF40}').contains(&c)
        || ('\u{FF5B}'..='\u{FF65}').contains(&c)
        || ('\u{2010}'..='\u{2027}').contains(&c)
}

/// Tokens that would hide a token the chapter shows (「用户界面」 would make
/// 用户 never follow 构建). They are removed with every merge built on them.
pub fn must_not_merge(token: &str) -> bool {
    const KEEP: [&str; 5] = ["超集", "用户", "界面", "北京", "首都"];
    KEEP.iter().any(|k| token.contains(k) && token != *k)
}

/// Words the chapter shows; their merges go first so no neighbouring merge
/// (「的首」, 「都是」) can split them.
pub const CHAPTER_WORDS: [&str; 5] = ["超集", "用户", "界面", "北京", "首都"];

struct Trained {
    alphabet: Vec<String>,
    merges: Vec<(String, String)>,
}

fn train_one(
    pieces: &[String],
    vocab_size: usize,
    limit_alphabet: usize,
    max_len: Option<usize>,
) -> Result<Trained, String> {
    let mut trainer = BpeTrainerBuilder::new()
        .vocab_size(vocab_size)
        .min_frequency(2)
        .limit_alphabet(limit_alphabet)
        .max_token_length(max_len)
        .show_progress(false)
        .build();
    trainer
        .feed(pieces.iter(), |s| Ok(vec![s.to_owned()]))
        .map_err(|e| e.to_string())?;
    let mut model = BPE::default();
    trainer.train(&mut model).map_err(|e| e.to_string())?;
    let json = serde_json::to_value(&model).map_err(|e| e.to_string())?;
    let merges_json = json["merges"]
        .as_array()
        .ok_or("no merges in trained model")?;
    let mut merges = Vec::new();
    for m in merges_json {
        let a = m[0].as_str().ok_or("bad merge")?;
        let b = m[1].as_str().ok_or("bad merge")?;
        merges.push((a.to_owned(), b.to_owned()));
    }
    let tvocab = tokenizers::Model::get_vocab(&model);
    let mut by_id: Vec<(u32, String)> = tvocab.into_iter().map(|(t, i)| (i, t)).collect();
    by_id.sort();
    let alphabet = by_id
        .into_iter()
        .filter(|(_, t)| t.chars().count() == 1)
        .map(|(_, t)| t)
        .collect();
    Ok(Trained { alphabet, merges })
}

/// Trains on `lines` and returns the `tokenizer.json` text.
///
/// Chinese has no spaces, so an unconstrained BPE glues whole phrases
/// (「给一个代码编辑器插件起名」) into one token. Pieces containing CJK are
/// therefore trained separately with tokens of at most `cjk_max` characters,
/// the rest (English, code words, punctuation) without a limit; the two merge
/// lists never combine the same symbols, so they are simply concatenated.
pub fn train(
    lines: &[String],
    vocab_size: usize,
    cjk_vocab: usize,
    cjk_max: usize,
) -> Result<String, String> {
    let reserved = SPECIALS.len() + 256;
    let mut cjk = Vec::new();
    let mut other = Vec::new();
    for l in lines {
        for p in training_pieces(l) {
            if p.chars().any(is_cjk) {
                cjk.push(p);
            } else {
                other.push(p);
            }
        }
    }
    let a = train_one(&cjk, cjk_vocab, 1800, Some(cjk_max))?;
    let b = train_one(&other, vocab_size - reserved - cjk_vocab, 400, None)?;
    let mut merges: Vec<(String, String)> = CHAPTER_WORDS
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            let x = cs.next().map(String::from).unwrap_or_default();
            (x, cs.collect::<String>())
        })
        .collect();
    merges.extend(a.merges);
    merges.extend(b.merges);
    let mut seen_pairs = HashSet::new();
    merges.retain(|m| seen_pairs.insert(m.clone()));
    let mut alphabet = a.alphabet;
    alphabet.extend(b.alphabet);

    // Prune unwanted tokens and everything built on them.
    let mut removed: HashSet<String> = HashSet::new();
    let mut kept_merges = Vec::new();
    for (a, b) in merges {
        let new = format!("{a}{b}");
        if removed.contains(&a) || removed.contains(&b) || must_not_merge(&new) {
            removed.insert(new);
            continue;
        }
        kept_merges.push((a, b));
    }
    let by_id: Vec<(u32, String)> = alphabet.into_iter().map(|t| (0, t)).collect();
    // Alphabet first (trainer ids before any merge result), then merge
    // results in merge order; a string two merges produce appears once.
    let mut vocab: Vec<String> = SPECIALS.iter().map(|s| s.to_string()).collect();
    for b in 0..=255u8 {
        vocab.push(format!("<0x{b:02X}>"));
    }
    let mut seen: HashSet<String> = vocab.iter().cloned().collect();
    for (_, t) in &by_id {
        if seen.insert(t.clone()) {
            vocab.push(t.clone());
        }
    }
    for (a, b) in &kept_merges {
        let t = format!("{a}{b}");
        if seen.insert(t.clone()) {
            vocab.push(t);
        }
    }
    let mut vmap = serde_json::Map::new();
    for (i, t) in vocab.iter().enumerate() {
        vmap.insert(t.clone(), serde_json::Value::from(i as u64));
    }
    let index: HashMap<&str, usize> = vocab
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    for (a, b) in &kept_merges {
        if !index.contains_key(a.as_str())
            || !index.contains_key(b.as_str())
            || !index.contains_key(format!("{a}{b}").as_str())
        {
            return Err(format!("merge {a:?} {b:?} refers to a missing token"));
        }
    }
    let merges_v: Vec<serde_json::Value> = kept_merges
        .iter()
        .map(|(a, b)| serde_json::json!([a, b]))
        .collect();
    let out = serde_json::json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": [],
        "normalizer": null,
        "pre_tokenizer": null,
        "post_processor": null,
        "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
        "model": {
            "type": "BPE",
            "dropout": null,
            "unk_token": "<unk>",
            "continuing_subword_prefix": null,
            "end_of_word_suffix": null,
            "fuse_unk": false,
            "byte_fallback": true,
            "ignore_merges": false,
            "vocab": vmap,
            "merges": merges_v,
        }
    });
    serde_json::to_string(&out).map_err(|e| e.to_string())
}
