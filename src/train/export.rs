//! Checkpoints (resumable: parameters + AdamW moments + step) and export of
//! the shipped weights as safetensors (int8 per row, or f32).

use std::io::Write;
use std::path::Path;

use super::nn::{Adam, Net};
use crate::model::Config;

const MAGIC: &[u8; 8] = b"NTCKPT01";

fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn get_f32s(b: &[u8], n: usize) -> Vec<f32> {
    b[..n * 4]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn save_checkpoint(path: &Path, c: &Config, params: &[f32], adam: &Adam) {
    let mut out = Vec::with_capacity(params.len() * 12 + 64);
    out.extend_from_slice(MAGIC);
    for v in [
        c.vocab_size,
        c.dim,
        c.n_layers,
        c.n_heads,
        c.seq_len,
        params.len(),
    ] {
        out.extend_from_slice(&(v as u64).to_le_bytes());
    }
    out.extend_from_slice(&adam.step.to_le_bytes());
    put_f32s(&mut out, params);
    put_f32s(&mut out, &adam.m);
    put_f32s(&mut out, &adam.v);
    // Write then rename, so a run cut off mid-write keeps the old checkpoint.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &out).expect("write checkpoint");
    std::fs::rename(&tmp, path).expect("rename checkpoint");
}

pub fn load_checkpoint(path: &Path) -> Option<(Config, Vec<f32>, Adam)> {
    let b = std::fs::read(path).ok()?;
    assert_eq!(&b[..8], MAGIC, "not a checkpoint: {}", path.display());
    let u = |i: usize| {
        u64::from_le_bytes(b[8 + i * 8..16 + i * 8].try_into().expect("8 bytes")) as usize
    };
    let c = Config {
        vocab_size: u(0),
        dim: u(1),
        n_layers: u(2),
        n_heads: u(3),
        seq_len: u(4),
    };
    let n = u(5);
    let step = u(6) as u64;
    let body = &b[8 + 7 * 8..];
    let params = get_f32s(body, n);
    let m = get_f32s(&body[n * 4..], n);
    let v = get_f32s(&body[n * 8..], n);
    Some((c, params, Adam { m, v, step }))
}

/// Writes every tensor of `net`; with `int8`, 2-D tensors become `I8` plus a
/// per-row `F32` scale tensor `<name>.scale` (w ≈ q · scale), 1-D stay F32.
pub fn write_safetensors(
    path: &Path,
    net: &Net,
    params: &[f32],
    int8: bool,
    f16_emb: bool,
    extra_meta: &[(&str, String)],
) -> std::io::Result<()> {
    let c = &net.c;
    let mut header = serde_json::Map::new();
    let mut meta = serde_json::Map::new();
    for (k, v) in [
        ("vocab_size", c.vocab_size),
        ("dim", c.dim),
        ("n_layers", c.n_layers),
        ("n_heads", c.n_heads),
        ("seq_len", c.seq_len),
    ] {
        meta.insert(k.into(), v.to_string().into());
    }
    meta.insert("format".into(), "nexttoken-gpt-v1".into());
    for (k, v) in extra_meta {
        meta.insert((*k).into(), v.clone().into());
    }
    header.insert("__metadata__".into(), meta.into());
    let mut data: Vec<u8> = Vec::new();
    let mut entry = |name: &str, dtype: &str, shape: &[usize], bytes: &[u8], data: &mut Vec<u8>| {
        let start = data.len();
        data.extend_from_slice(bytes);
        header.insert(
            name.into(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [start, data.len()]}),
        );
    };
    for s in &net.layout.slots {
        let w = &params[s.offset..s.offset + s.len()];
        if int8 && s.name == "tok_emb" && f16_emb {
            // The tied embedding is also the output layer: every logit is a
            // dot with one of its rows, so it keeps 16 bits.
            let b: Vec<u8> = w
                .iter()
                .flat_map(|x| f32_to_f16(*x).to_le_bytes())
                .collect();
            entry(&s.name, "F16", &s.shape, &b, &mut data);
        } else if int8 && s.shape.len() == 2 {
            let cols = s.shape[1];
            let mut q = Vec::with_capacity(w.len());
            let mut scales = Vec::with_capacity(s.shape[0]);
            for row in w.chunks_exact(cols) {
                let max = row.iter().fold(0.0f32, |m, x| m.max(x.abs()));
                let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
                scales.push(scale);
                q.extend(
                    row.iter()
                        .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8 as u8),
                );
            }
            entry(&s.name, "I8", &s.shape, &q, &mut data);
            let mut sb = Vec::new();
            put_f32s(&mut sb, &scales);
            entry(
                &format!("{}.scale", s.name),
                "F32",
                &s.shape[..1],
                &sb,
                &mut data,
            );
        } else {
            let mut b = Vec::new();
            put_f32s(&mut b, w);
            entry(&s.name, "F32", &s.shape, &b, &mut data);
        }
    }
    let mut h = serde_json::to_vec(&serde_json::Value::Object(header))?;
    while h.len() % 8 != 0 {
        h.push(b' ');
    }
    let mut f = std::fs::File::create(path)?;
    f.write_all(&(h.len() as u64).to_le_bytes())?;
    f.write_all(&h)?;
    f.write_all(&data)?;
    Ok(())
}

/// Reads shipped (or f32) safetensors back into the trainer's flat layout,
/// dequantising int8 rows, so the trainer's forward can run on exactly the
/// weights the page uses.
pub fn params_from_safetensors(
    bytes: &[u8],
) -> Result<(Config, Vec<f32>), crate::model::LoadError> {
    use crate::model::{Dtype, SafeTensors};
    let st = SafeTensors::parse(bytes)?;
    let meta = |k: &str| -> usize { st.metadata(k).and_then(|v| v.parse().ok()).unwrap_or(0) };
    let c = Config {
        vocab_size: meta("vocab_size"),
        dim: meta("dim"),
        n_layers: meta("n_layers"),
        n_heads: meta("n_heads"),
        seq_len: meta("seq_len"),
    };
    let layout = super::nn::Layout::new(&c);
    let mut params = vec![0.0f32; layout.total];
    for s in &layout.slots {
        let t = st.tensor(&s.name)?;
        let mut v = t.to_f32();
        if t.dtype == Dtype::I8 {
            let scales = st.tensor(&format!("{}.scale", s.name))?.to_f32();
            let cols = s.shape[1];
            for (row, sc) in v.chunks_exact_mut(cols).zip(scales) {
                for x in row {
                    *x *= sc;
                }
            }
        }
        params[s.offset..s.offset + s.len()].copy_from_slice(&v);
    }
    Ok((c, params))
}

/// f32 → IEEE half, round to nearest even (weights are far from overflow).
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let mant = b & 0x7f_ffff;
    if exp >= 31 {
        return sign
            | 0x7c00
            | if (b & 0x7fff_ffff) > 0x7f80_0000 {
                0x200
            } else {
                0
            };
    }
    if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - exp) as u32;
        let mut half = (m >> shift) as u16;
        let rem = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        if rem > halfway || (rem == halfway && half & 1 == 1) {
            half += 1;
        }
        return sign | half;
    }
    let mut half = sign | ((exp as u16) << 10) | (mant >> 13) as u16;
    let rem = mant & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && half & 1 == 1) {
        half += 1;
    }
    half
}
