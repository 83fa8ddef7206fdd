//! User text echoed in an error message, made visible. A key or string a caller wrote may hold
//! characters that print as nothing or reorder what follows: bidi controls (`top\u{202E}k` shows
//! as "topk" reversed after it), zero-width ones (`top_k\u{200B}` looks like `top_k`), other
//! default-ignorable code points and line separators. Printed raw, the message names a key the
//! reader cannot see; escaped, it says exactly what was written.

/// True for a character a message must not print raw: a control character, a bidi control, a
/// zero-width or other default-ignorable code point (Unicode's Default_Ignorable_Code_Point, as
/// listed in DerivedCoreProperties.txt, less the unassigned ones), or a line/paragraph separator.
pub fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c as u32,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// `c` as JavaScript writes it in a string literal: `\u202E`, `\u{E0001}` beyond the BMP.
pub fn js_escape(c: char) -> String {
    match c as u32 {
        n @ 0..=0xFFFF => format!("\\u{n:04X}"),
        n => format!("\\u{{{n:X}}}"),
    }
}

/// `text` (already quoted or escaped as Rust's `{:?}` does) with any invisible character it still
/// holds raw written as `\u{…}`, the form `{:?}` uses for the ones it escapes itself.
pub fn debug_visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if invisible(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `key` without its invisible characters: what the reader sees, and so what the key most
/// likely meant (`top_k\u{200B}` → `top_k`), for the unknown-key suggestion.
pub fn visible_part(key: &str) -> String {
    key.chars().filter(|&c| !invisible(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_zero_width_and_controls_are_invisible_letters_are_not() {
        for c in [
            '\u{202E}',
            '\u{200B}',
            '\u{200D}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{0000}',
            '\u{2028}',
            '\u{E0041}',
            '\u{FE0F}',
        ] {
            assert!(invisible(c), "{:x}", c as u32);
        }
        for c in ['a', '_', ' ', '界', 'é', '😀', '\u{0301}'] {
            assert!(!invisible(c), "{:x}", c as u32);
        }
        assert_eq!(js_escape('\u{202E}'), "\\u202E");
        assert_eq!(js_escape('\u{E0041}'), "\\u{E0041}");
        assert_eq!(debug_visible("\"a\u{3164}b\\\""), "\"a\\u{3164}b\\\"");
        assert_eq!(visible_part("top\u{202E}k\u{200B}"), "topk");
    }
}
