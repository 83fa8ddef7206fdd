//! Greedy fluency on the committed prompt set (`eval_prompts.txt`, issue 13):
//! how far greedy decoding gets before it loops, and whether it ends cleanly.
//! Measured through the page's own `Generator`, so it is what a teacher sees.

use crate::decode::Config as StepConfig;
use crate::generate::{first_repeat, Generator, StopReason};

/// The team-written fluency prompts, one per line (`#` lines are comments).
pub const PROMPTS_TEXT: &str = include_str!("eval_prompts.txt");

/// Greedy runs at least this many tokens before its first repeated 4-gram…
pub const MIN_RUN: usize = 12;
/// …or ends with `</s>` after at least this many tokens, without a repeat.
pub const MIN_CLEAN_END: usize = 6;
/// Tokens generated per prompt at most.
pub const MAX_NEW: usize = 60;

pub fn prompts() -> Vec<&'static str> {
    PROMPTS_TEXT
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// One greedy continuation, `</s>` allowed.
#[derive(Clone, Debug)]
pub struct GreedyRun {
    pub prompt: String,
    pub text: String,
    /// Generated tokens, the end token excluded.
    pub tokens: usize,
    /// Tokens before the first repeated token 4-gram (`tokens` if none).
    pub first_repeat: usize,
    /// Stopped by `</s>`.
    pub ended: bool,
    /// `</s>` was the first token.
    pub eos_first: bool,
}

impl GreedyRun {
    /// Ended with `</s>` after ≥ `MIN_CLEAN_END` tokens and no loop before it.
    pub fn clean_end(&self) -> bool {
        self.ended && self.tokens >= MIN_CLEAN_END && self.first_repeat == self.tokens
    }
    /// Ran ≥ `MIN_RUN` tokens before a repeat.
    pub fn long_run(&self) -> bool {
        self.first_repeat >= MIN_RUN
    }
    /// The criterion: a long run or a clean end.
    pub fn fluent(&self) -> bool {
        self.long_run() || self.clean_end()
    }
}

/// Greedy decoding from `prompt` (temperature 0, nothing else), at most
/// `MAX_NEW` tokens.
pub fn greedy(g: &mut Generator, prompt: &str) -> GreedyRun {
    g.max_new_tokens = MAX_NEW;
    g.set_prompt(prompt).expect("fluency prompt encodes");
    let greedy = StepConfig {
        temperature: Some(0.0),
        ..StepConfig::default()
    };
    while g.next(&greedy).is_ok() {}
    let eos = g.tokenizer().eos_id();
    let mut gen = g.tokens()[g.prompt_len()..].to_vec();
    let ended = matches!(g.stopped(), Some(StopReason::Eos));
    let eos_first = gen.first().copied() == eos;
    if ended {
        gen.pop();
    }
    GreedyRun {
        prompt: prompt.to_owned(),
        text: g.text().to_owned(),
        tokens: gen.len(),
        first_repeat: first_repeat(&gen, 4),
        ended,
        eos_first,
    }
}

/// Every prompt of the set, in order.
pub fn run_all(g: &mut Generator) -> Vec<GreedyRun> {
    prompts().into_iter().map(|p| greedy(g, p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tokens: usize, first_repeat: usize, ended: bool) -> GreedyRun {
        GreedyRun {
            prompt: String::new(),
            text: String::new(),
            tokens,
            first_repeat,
            ended,
            eos_first: ended && tokens == 0,
        }
    }

    #[test]
    fn a_run_is_fluent_when_long_before_a_repeat_or_ended_cleanly() {
        assert!(run(60, 12, false).fluent());
        assert!(!run(60, 11, false).fluent());
        // A clean end: </s> after ≥ 6 tokens and no loop before it.
        assert!(run(6, 6, true).fluent());
        assert!(!run(5, 5, true).fluent());
        assert!(!run(22, 8, true).fluent(), "a loop, then </s>");
        assert!(!run(0, 0, true).fluent());
        assert!(!run(8, 8, false).clean_end(), "cut off, not ended");
    }

    #[test]
    fn the_set_is_twenty_prompts() {
        assert_eq!(prompts().len(), 20);
        assert!(prompts()
            .iter()
            .all(|p| !p.is_empty() && !p.starts_with('#')));
    }
}
