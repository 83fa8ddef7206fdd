//! Training text: the documentation corpus (read from `../shared/corpus`,
//! never committed) and the committed lesson corpora, split into a training
//! stream and a held-out documentation stream, encoded with the reference
//! tokenizer. The corpus is one paragraph per line, a blank line between
//! texts (pages); how a paragraph ends in the stream is `Breaks`.
//!
//! Each documentation file's tail (`VAL_FRACTION` of its lines) is held out.
//! The split of a file depends only on that file, so adding files leaves the
//! first four files' held-out tails — the first edition's numbers — unchanged.

use std::path::Path;

use super::nn::Rng;

pub const DOC_FILES: [&str; 6] = [
    "zh-react-docs.txt",
    "zh-vue-docs.txt",
    "zh-typescript-handbook.txt",
    "en-react-docs.txt",
    "zh-hf-llm-course.txt",
    "en-hf-llm-course.txt",
];

/// The first edition's files (`DOC_FILES[..OLD_DOC_FILES]`): the model card's
/// "old files", whose held-out tails keep the two editions comparable.
pub const OLD_DOC_FILES: usize = 4;

/// The documentation files of a mix: `"all"` (the second edition) or `"old"`
/// (the first edition's four files, to re-measure it on its own data).
pub fn doc_files(mix: &str) -> &'static [&'static str] {
    match mix {
        "all" => &DOC_FILES,
        "old" => &DOC_FILES[..OLD_DOC_FILES],
        _ => panic!("--docs must be all or old, not {mix:?}"),
    }
}

/// The share of each documentation file held out for validation (its tail).
pub const VAL_FRACTION: f64 = 0.05;

/// What follows a paragraph in the token stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breaks {
    /// `</s>` after every paragraph (the first edition and the second
    /// edition's base run). A model trained so learns to end after any
    /// heading or question: 「什么是 JSX？」 is followed by `</s>` in training.
    Line,
    /// A newline between the paragraphs of a text and `</s>` only where the
    /// text ends (a blank line or the file's end). Lesson lines are texts of
    /// their own, so each still ends with `</s>`.
    Text,
}

impl Breaks {
    /// Parses `--breaks line|text`.
    pub fn parse(s: &str) -> Breaks {
        match s {
            "line" => Breaks::Line,
            "text" => Breaks::Text,
            _ => panic!("--breaks must be line or text, not {s:?}"),
        }
    }

    /// The token after a paragraph: `eos` where it ends its text (or always,
    /// with `Line`), else `newline`.
    pub fn after(self, ends_text: bool, eos: u32, newline: u32) -> u32 {
        if ends_text || self == Breaks::Line {
            eos
        } else {
            newline
        }
    }
}

/// One committed lesson corpus and its share of the training stream.
pub struct Lessons {
    pub path: String,
    pub share: f64,
    pub lines: Vec<String>,
}

/// Parses `path:share,path:share` (shares of the training stream, in tokens).
pub fn parse_lesson_spec(spec: &str) -> Vec<(String, f64)> {
    spec.split(',')
        .filter(|s| !s.is_empty())
        .map(|part| {
            let (path, share) = part
                .rsplit_once(':')
                .unwrap_or_else(|| panic!("--lessons: {part:?} is not path:share"));
            let share: f64 = share
                .parse()
                .unwrap_or_else(|_| panic!("--lessons: share {share:?} is not a number"));
            assert!(
                (0.0..0.5).contains(&share),
                "--lessons: share {share} must be in [0, 0.5)"
            );
            (path.to_owned(), share)
        })
        .collect()
}

pub struct Corpus {
    /// The documentation files read, in order (a prefix of `DOC_FILES`).
    pub files: Vec<&'static str>,
    pub train_docs: Vec<String>,
    /// Whether each of `train_docs`' paragraphs is the last of its text.
    pub train_ends: Vec<bool>,
    /// How many of `train_docs`' lines (in order) come from each file.
    pub train_lines_per_file: Vec<usize>,
    pub val_docs: Vec<String>,
    /// Whether each of `val_docs`' paragraphs is the last of its text.
    pub val_ends: Vec<bool>,
    /// How many of `val_docs`' lines (in order) come from each file.
    pub val_lines_per_file: Vec<usize>,
    pub lessons: Vec<Lessons>,
}

pub fn load(corpus_dir: &Path, files: &[&'static str], lessons: &[(String, f64)]) -> Corpus {
    let mut train_docs = Vec::new();
    let mut train_ends = Vec::new();
    let mut train_lines_per_file = Vec::new();
    let mut val_docs = Vec::new();
    let mut val_ends = Vec::new();
    let mut val_lines_per_file = Vec::new();
    for &f in files {
        let text = std::fs::read_to_string(corpus_dir.join(f)).expect("read corpus file");
        let (lines, mut ends) = paragraphs(&text);
        let cut = ((lines.len() as f64) * (1.0 - VAL_FRACTION)) as usize;
        // The training part ends where the held-out tail begins.
        if cut > 0 {
            ends[cut - 1] = true;
        }
        train_docs.extend_from_slice(&lines[..cut]);
        train_ends.extend_from_slice(&ends[..cut]);
        train_lines_per_file.push(cut);
        val_docs.extend_from_slice(&lines[cut..]);
        val_ends.extend_from_slice(&ends[cut..]);
        val_lines_per_file.push(lines.len() - cut);
    }
    let lessons = lessons
        .iter()
        .map(|(path, share)| Lessons {
            path: path.clone(),
            share: *share,
            lines: std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("read lessons {path}: {e}"))
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned)
                .collect(),
        })
        .collect();
    Corpus {
        files: files.to_vec(),
        train_docs,
        train_ends,
        train_lines_per_file,
        val_docs,
        val_ends,
        val_lines_per_file,
        lessons,
    }
}

/// A file's non-blank lines (its paragraphs) and, for each, whether it is
/// the last of its text: the next line is blank or the file ends.
pub fn paragraphs(text: &str) -> (Vec<String>, Vec<bool>) {
    let raw: Vec<&str> = text.lines().collect();
    let blank = |i: usize| raw.get(i).is_none_or(|l| l.trim().is_empty());
    let mut lines = Vec::new();
    let mut ends = Vec::new();
    for (i, l) in raw.iter().enumerate() {
        if !blank(i) {
            lines.push((*l).to_owned());
            ends.push(blank(i + 1));
        }
    }
    (lines, ends)
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
    /// Appends a paragraph and the token that follows it (`Breaks::after`).
    pub fn push_line(&mut self, ids: &[u32], after: u32) {
        self.starts.push(self.tokens.len());
        self.tokens.extend_from_slice(ids);
        self.tokens.push(after);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_line_or_the_files_end_ends_a_text() {
        let (lines, ends) = paragraphs("# 标题\n第一段。\n\n  \n第二篇。\n最后一段。");
        assert_eq!(lines, ["# 标题", "第一段。", "第二篇。", "最后一段。"]);
        assert_eq!(ends, [false, true, false, true]);
    }

    #[test]
    fn text_breaks_keep_the_end_token_for_the_end_of_a_text_only() {
        let (eos, nl) = (2, 13);
        let mut s = Stream::new();
        for (ids, ends) in [(&[7u32, 8][..], false), (&[9][..], true)] {
            s.push_line(ids, Breaks::Text.after(ends, eos, nl));
        }
        assert_eq!(s.tokens, [7, 8, nl, 9, eos]);
        assert_eq!(s.starts, [0, 3]);
        assert_eq!(Breaks::Line.after(false, eos, nl), eos);
    }
}
