//! The team-written everyday and language-model lesson text
//! (`src/train/lessons_everyday.txt`, issue 13) teaches sentence starts, not
//! answers: it holds none of the fluency prompts it is measured on, none of
//! the chapter's test prompts or their answers, and no templated lines.

const EVERYDAY: &str = include_str!("../src/train/lessons_everyday.txt");
const PROMPTS: &str = include_str!("../src/train/eval_prompts.txt");

/// The chapter prompts whose behaviour `tests/model.rs` and the lessons
/// (`tests/e2e/lessons.test.mjs`) test, and the answers they expect.
const CHAPTER: [&str; 15] = [
    "中国的首都是",
    "德国的首都是",
    "英国的首都是",
    "伦敦",
    "首都",
    "北京",
    "柏林",
    "给一个代码编辑器插件起名",
    "TypeScript 是 JavaScript 的",
    "超集",
    "React 是一个用于构建",
    "用户界面",
    "组件是",
    "状态",
    "capital of",
];

fn lines() -> Vec<&'static str> {
    EVERYDAY.lines().filter(|l| !l.trim().is_empty()).collect()
}

fn fluency_prompts() -> Vec<&'static str> {
    PROMPTS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn the_fluency_set_has_twenty_prompts_in_both_languages() {
    let p = fluency_prompts();
    assert_eq!(p.len(), 20);
    let zh = p
        .iter()
        .filter(|s| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)))
        .count();
    assert!(zh >= 8 && p.len() - zh >= 8, "{zh} Chinese of {}", p.len());
}

#[test]
fn no_lesson_line_holds_a_fluency_prompt_or_a_chapter_prompt_or_answer() {
    // Trailing punctuation is dropped, so 「温度越高」 is caught as well as 「温度越高，」.
    let trim = |p: &str| {
        p.trim_end_matches(['，', '。', '？', ',', '.', '?', ' '])
            .to_lowercase()
    };
    let mut needles: Vec<String> = fluency_prompts().into_iter().map(trim).collect();
    needles.extend(CHAPTER.iter().map(|p| trim(p)));
    for line in lines() {
        let l = line.to_lowercase();
        for n in &needles {
            assert!(!l.contains(n.as_str()), "{n:?} in: {line}");
        }
    }
}

#[test]
fn lesson_lines_are_varied_not_templated() {
    let lines = lines();
    assert!(lines.len() >= 300, "{} lines", lines.len());
    let mut seen = std::collections::HashMap::new();
    for line in &lines {
        let start: String = line.chars().take(12).collect();
        if let Some(other) = seen.insert(start, line) {
            panic!("two lines start alike:\n{other}\n{line}");
        }
    }
    // Both languages, both kinds of text.
    let has = |w: &str| lines.iter().filter(|l| l.contains(w)).count();
    for w in [
        "今天", "学校", "天气", "我们", "模型", "概率", "温度", "采样", "token",
    ] {
        assert!(has(w) >= 3, "{w}: {} lines", has(w));
    }
    for w in ["weather", "school", "temperature", "tokens", "probabilit"] {
        assert!(has(w) >= 3, "{w}: {} lines", has(w));
    }
}
