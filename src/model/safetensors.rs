//! Reads the safetensors format by hand: an 8-byte little-endian header
//! length, a JSON header naming each tensor's dtype, shape and byte range,
//! then the raw bytes. Only what the shipped model uses: F32, F16 and I8.
//! Every offset and size is checked; bad bytes give a `LoadError`.

use std::fmt;

use crate::tokenizer::json::{self, Json};

/// Why model bytes could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Fewer bytes than the header claims (or than 8).
    Truncated { needed: u64, got: u64 },
    /// The header is not the JSON object safetensors specifies.
    Header(String),
    /// A named tensor is missing, has the wrong dtype or shape, or points
    /// outside the data.
    Tensor { name: String, problem: String },
    /// `__metadata__` lacks a field or holds a value out of range.
    Metadata { field: String, problem: String },
    /// The file is larger than [`MAX_MODEL_BYTES`].
    TooLarge { size: u64 },
}

/// Longest safetensors header accepted: 1 MiB (the shipped one is 6.5 KB; 64 layers need about
/// 64 KB). Parsed into a JSON tree, a header costs up to 16× its length in memory: a 32 MB file of
/// `[0,0,…]` grew the page's wasm memory to 545 MB (never returned) before it was refused.
pub const MAX_HEADER_BYTES: u64 = 1 << 20;

/// Largest model file accepted: 32 MiB (the shipped one is under 2 MB). With tensors that may not
/// overlap, the weights as f32 then take at most 4× this.
pub const MAX_MODEL_BYTES: usize = 32 << 20;

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Truncated { needed, got } => {
                write!(f, "model file truncated: needs {needed} bytes, got {got}")
            }
            LoadError::Header(e) => write!(f, "safetensors header: {e}"),
            LoadError::Tensor { name, problem } => write!(f, "tensor `{name}`: {problem}"),
            LoadError::Metadata { field, problem } => write!(f, "metadata `{field}`: {problem}"),
            LoadError::TooLarge { size } => write!(
                f,
                "model file must be at most {MAX_MODEL_BYTES} bytes, got {size}"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

pub(crate) fn tensor_err(name: &str, problem: impl Into<String>) -> LoadError {
    LoadError::Tensor {
        name: name.to_owned(),
        problem: problem.into(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    F32,
    F16,
    I8,
}

impl Dtype {
    fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 => 2,
            Dtype::I8 => 1,
        }
    }
}

/// One tensor's description and bytes.
pub struct TensorView<'a> {
    pub dtype: Dtype,
    pub shape: Vec<usize>,
    pub data: &'a [u8],
}

impl TensorView<'_> {
    /// The values as f32 (I8 values are returned unscaled).
    pub fn to_f32(&self) -> Vec<f32> {
        match self.dtype {
            Dtype::F32 => self
                .data
                .chunks_exact(4)
                .filter_map(|c| c.try_into().ok())
                .map(f32::from_le_bytes)
                .collect(),
            Dtype::F16 => self
                .data
                .chunks_exact(2)
                .filter_map(|c| c.try_into().ok())
                .map(|c| f16_to_f32(u16::from_le_bytes(c)))
                .collect(),
            Dtype::I8 => self.data.iter().map(|&b| b as i8 as f32).collect(),
        }
    }
}

/// IEEE half → single, including subnormals, infinities and NaN.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = match (exp, frac) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = frac · 2^-24.
            let v = frac as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, _) => sign | 0x7f80_0000 | (frac << 13),
        _ => sign | ((exp + 112) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

/// Refuses tensors whose `data_offsets` overlap: shared bytes would let a small file describe
/// many large tensors (every layer reading one range), and safetensors forbids it. Entries with
/// malformed offsets, or past the data (`data_len`), are left to [`SafeTensors::tensor`], which
/// names that problem rather than an overlap it causes.
fn check_disjoint(entries: &[(String, Json)], data_len: u64) -> Result<(), LoadError> {
    let mut ranges: Vec<(u64, u64, &str)> = entries
        .iter()
        .filter_map(|(name, e)| {
            let offs = e.get("data_offsets")?.as_array()?;
            match offs {
                [s, e] => Some((s.as_u64()?, e.as_u64()?, name.as_str())),
                _ => None,
            }
        })
        .filter(|(s, e, _)| s < e && *e <= data_len)
        .collect();
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        if let [(s0, e0, a), (s1, e1, b)] = pair {
            if s1 < e0 {
                return Err(tensor_err(
                    b,
                    format!("data_offsets [{s1}, {e1}] overlap tensor `{a}` [{s0}, {e0}]; tensors must not share bytes"),
                ));
            }
        }
    }
    Ok(())
}

/// A parsed file: header entries plus the data section.
pub struct SafeTensors<'a> {
    entries: Vec<(String, Json)>,
    metadata: Vec<(String, String)>,
    data: &'a [u8],
}

impl<'a> SafeTensors<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<SafeTensors<'a>, LoadError> {
        let got = bytes.len() as u64;
        if bytes.len() > MAX_MODEL_BYTES {
            return Err(LoadError::TooLarge { size: got });
        }
        let len_bytes: [u8; 8] = bytes
            .get(..8)
            .and_then(|b| b.try_into().ok())
            .ok_or(LoadError::Truncated { needed: 8, got })?;
        let n = u64::from_le_bytes(len_bytes);
        let needed = n.saturating_add(8);
        let truncated = LoadError::Truncated { needed, got };
        if n > MAX_HEADER_BYTES && needed <= got {
            return Err(LoadError::Header(format!(
                "its length ({n} bytes, the first 8 bytes of the file) must be at most {MAX_HEADER_BYTES}"
            )));
        }
        // (needed ≤ got, a usize, once the split succeeds)
        let (header, data) = usize::try_from(n)
            .ok()
            .and_then(|n| bytes.get(8..)?.split_at_checked(n))
            .ok_or(truncated)?;
        let text =
            std::str::from_utf8(header).map_err(|_| LoadError::Header("not UTF-8".into()))?;
        let root = json::parse(text).map_err(LoadError::Header)?;
        let Json::Object(items) = root else {
            return Err(LoadError::Header("must be a JSON object".into()));
        };
        let mut entries = Vec::new();
        let mut metadata = Vec::new();
        for (k, v) in items {
            if k == "__metadata__" {
                for (mk, mv) in v.as_object().unwrap_or_default() {
                    if let Some(s) = mv.as_str() {
                        metadata.push((mk.clone(), s.to_owned()));
                    }
                }
            } else {
                entries.push((k, v));
            }
        }
        check_disjoint(&entries, data.len() as u64)?;
        Ok(SafeTensors {
            entries,
            metadata,
            data,
        })
    }

    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.entries.iter().any(|(k, _)| k == name)
    }

    pub fn tensor(&self, name: &str) -> Result<TensorView<'a>, LoadError> {
        let e = self
            .entries
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
            .ok_or_else(|| tensor_err(name, "missing"))?;
        let dtype = match e.get("dtype").and_then(Json::as_str) {
            Some("F32") => Dtype::F32,
            Some("F16") => Dtype::F16,
            Some("I8") => Dtype::I8,
            other => {
                return Err(tensor_err(
                    name,
                    format!("dtype {other:?} is not one of F32, F16, I8"),
                ))
            }
        };
        let dims: Vec<u64> = e
            .get("shape")
            .and_then(Json::as_array)
            .ok_or_else(|| tensor_err(name, "shape missing"))?
            .iter()
            .map(Json::as_u64)
            .collect::<Option<_>>()
            .ok_or_else(|| tensor_err(name, "shape must be non-negative integers"))?;
        // (try_from: on wasm32 `as usize` wrapped 2^32 + 128 to 128, a header that lies read as true)
        let mut shape = Vec::with_capacity(dims.len());
        for &d in &dims {
            let fits = usize::try_from(d).map_err(|_| {
                tensor_err(
                    name,
                    format!("shape dimension {d} must be at most {}", usize::MAX),
                )
            })?;
            shape.push(fits);
        }
        let Some([first, last]) = e.get("data_offsets").and_then(Json::as_array) else {
            return Err(tensor_err(name, "data_offsets must be [start, end]"));
        };
        // `get` is None unless start ≤ end ≤ the data size
        let range = |j: &Json| j.as_u64().and_then(|v| usize::try_from(v).ok());
        let data = match range(first).zip(range(last)) {
            Some((start, end)) => self.data.get(start..end),
            None => None,
        };
        let data = match data {
            Some(data) => data,
            None => {
                let show = |j: &Json| match j {
                    Json::Number(n) if n.fract() == 0.0 && n.abs() < 1e21 => format!("{n}"),
                    Json::Number(n) => format!("{n:e}"),
                    _ => "not a number".to_owned(),
                };
                return Err(tensor_err(
                    name,
                    format!(
                        "data_offsets [{}, {}] must satisfy start ≤ end ≤ {} (the data size)",
                        show(first),
                        show(last),
                        self.data.len()
                    ),
                ));
            }
        };
        let numel = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
        if numel.and_then(|n| n.checked_mul(dtype.size())) != Some(data.len()) {
            return Err(tensor_err(
                name,
                format!(
                    "{} bytes do not match shape {shape:?} of {dtype:?}",
                    data.len()
                ),
            ));
        }
        Ok(TensorView { dtype, shape, data })
    }
}
