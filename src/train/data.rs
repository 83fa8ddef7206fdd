//! Training text: the documentation corpus (read from `../shared/corpus`,
//! never committed) and the committed lesson corpus, split into a training
//! stream and a held-out documentation stream, encoded with the reference
//! tokenizer. Every paragraph (one line) ends with `</s>`.

use std::path::Path;

use super::nn::Rng;

pub const DOC_FILES: [&str; 4] = [
    "zh-react-docs.txt",
    "zh-vue-docs.txt",
    "zh-typescript-handbook.txt",
    "en-react-docs.txt",
];

/// The share of each documentation file held out for validation (its tail).
pub const VAL_FRACTION: f64 = 0.05;

pub struct Corpus {
    pub train_docs: Vec<String>,
    pub val_docs: Vec<String>,
    /// How many of `val_docs`' lines (in order) come from each of `DOC_FILES`.
    pub val_lines_per_file: Vec<usize>,
    pub lessons: Vec<String>,
}

pub fn load(corpus_dir: &Path, lessons: &Path) -> Corpus {
    let mut train_docs = Vec::new();
    let mut val_docs = Vec::new();
    let mut val_lines_per_file = Vec::new();
    for f in DOC_FILES {
        let text = std::fs::read_to_string(corpus_dir.join(f)).expect("read corpus file");
        let lines: Vec<String> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect();
        let cut = ((lines.len() as f64) * (1.0 - VAL_FRACTION)) as usize;
        train_docs.extend_from_slice(&lines[..cut]);
        val_docs.extend_from_slice(&lines[cut..]);
        val_lines_per_file.push(lines.len() - cut);
    }
    let lessons = std::fs::read_to_string(lessons)
        .expect("read lessons")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    Corpus {
        train_docs,
        val_docs,
        val_lines_per_file,
        lessons,
    }
}

/// A token stream with the offsets where paragraphs start.
pub struct Stream {
    pub tokens: Vec<u32>,
    pub starts: Vec<usize>,
}

impl Default for Stream {
    fn default() -> Self {
        Stream::new()
    }
}

impl Stream {
    pub fn new() -> Stream {
        Stream {
            tokens: Vec::new(),
            starts: Vec::new(),
        }
    }
    pub fn push_line(&mut self, ids: &[u32], eos: u32) {
        self.starts.push(self.tokens.len());
        self.tokens.extend_from_slice(ids);
        self.tokens.push(eos);
    }

    /// A window of `t + 1` tokens starting at a paragraph start, chosen with
    /// probability proportional to the preceding paragraph's length (so the
    /// mix follows token counts, not line counts).
    pub fn sample(&self, rng: &mut Rng, t: usize) -> &[u32] {
        let limit = self.tokens.len() - t - 1;
        loop {
            let p = rng.below(limit);
            let i = self.starts.partition_point(|&s| s < p);
            if i < self.starts.len() && self.starts[i] <= limit {
                let s = self.starts[i];
                return &self.tokens[s..s + t + 1];
            }
        }
    }
}

pub fn encode_lines(tok: &tokenizers::Tokenizer, lines: &[String]) -> Vec<Vec<u32>> {
    lines
        .iter()
        .map(|l| {
            tok.encode(l.as_str(), false)
                .expect("encode")
                .get_ids()
                .to_vec()
        })
        .collect()
}
