//! `Value`: a config as plain JSON-like data, so one field-aware parser serves JavaScript objects
//! (through serde-wasm-bindgen), JSON test vectors (through serde_json) and URL state alike.
//!
//! Parsing from a generic tree instead of deriving `Deserialize` on `Config` is deliberate: serde's
//! derived errors do not name the offending key, and the contract says every error must.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A JSON-like value. Objects keep their key order.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
    /// A JavaScript value JSON has no form for — a symbol, a function, a hole in an array, a Map, a
    /// BigInt no number holds — as the JS boundary describes it ("a symbol", "a hole (no element at
    /// index 2)"): every parser refuses it in its own words, like any value of the wrong type.
    Other(String),
}

impl Value {
    /// A short description for error messages: `string "hot"`, `an array`, `1.5`.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => format!("boolean {b}"),
            Value::Number(n) => format_number(*n),
            Value::String(s) => {
                let short: String = s.chars().take(40).collect();
                // {:?} escapes controls and most invisible characters, not all (a variation
                // selector or U+3164 after the first character): echo.rs writes those too
                format!(
                    "string {}",
                    super::echo::debug_visible(&format!("{short:?}"))
                )
            }
            Value::Array(_) => "an array".into(),
            Value::Object(_) => "an object".into(),
            Value::Other(description) => description.chars().take(120).collect(),
        }
    }

    /// What a value is where a list belongs: a number says so ("…at most 1024 token ids, got 5"
    /// read as five ids).
    pub fn describe_for_list(&self) -> String {
        match self {
            Value::Number(_) => format!("the number {}", self.describe()),
            _ => self.describe(),
        }
    }
}

/// Formats a number the way JavaScript prints it (integers without a trailing `.0`).
pub fn format_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else if n.abs() >= 1e21 || n.abs() < 1e-6 {
        // Exponent form, as JavaScript prints it (1e+300, 5e-324): never hundreds of digits.
        let e = format!("{n:e}");
        match e.split_once('e') {
            Some((m, exp)) if !exp.starts_with('-') => format!("{m}e+{exp}"),
            _ => e,
        }
    } else {
        format!("{n}")
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-like value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    // Only the JS boundary sends bytes: its description of a value JSON has no form for.
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Other(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
        self.visit_bytes(&v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Deserialize::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            entries.push((k, v));
        }
        Ok(Value::Object(entries))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_prints_them_never_hundreds_of_digits() {
        assert_eq!(format_number(1e300), "1e+300");
        assert_eq!(format_number(-1e21), "-1e+21");
        assert_eq!(format_number(5e-324), "5e-324");
        assert_eq!(format_number(9_007_199_254_740_991.0), "9007199254740991");
        assert_eq!(format_number(7999.9), "7999.9");
        assert_eq!(format_number(0.001), "0.001");
        assert_eq!(format_number(f64::NAN), "NaN");
    }
}
