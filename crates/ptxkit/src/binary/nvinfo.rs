//! The attribute records of a cubin's `.nv.info` and `.nv.info.<kernel>`
//! sections.
//!
//! A section is a run of records, each opening with a format byte and an
//! attribute byte:
//!
//! | format | what follows |
//! | --- | --- |
//! | 1 (no value) | two bytes of padding |
//! | 2 (byte) | the value, one byte, and one of padding |
//! | 3 (half) | the value, a little-endian `u16` |
//! | 4 (sized) | a `u16` size, then that many bytes |
//!
//! In `.nv.info` the sized records of per-function attributes start with
//! the function's symbol index (`u32`) and carry the value after it
//! (`REGCOUNT`, `FRAME_SIZE`, `MIN_STACK_SIZE`...); in `.nv.info.<kernel>`
//! they hold the value alone. The attribute numbers were matched against
//! what `cuobjdump -elf` and `ptxas -v` print for cubins built by CUDA 13.5
//! (the tests rebuild them).

use super::fatbin::{le, u32_at};

/// Attribute numbers read here.
pub mod attr {
    /// Launch bounds: the most threads per block (x, y, z), `u32` each.
    pub const MAX_THREADS: u8 = 0x05;
    /// Required block size (`.reqntid`): x, y, z, `u32` each.
    pub const REQNTID: u8 = 0x10;
    /// Per function (in `.nv.info`): symbol, then its frame size in bytes.
    pub const FRAME_SIZE: u8 = 0x11;
    /// Per function (in `.nv.info`): symbol, then the stack it needs
    /// with its callees (`0xffffffff`: unknown, recursion or indirect
    /// calls).
    pub const MIN_STACK_SIZE: u8 = 0x12;
    /// The size of the kernel parameters in constant bank 0.
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    /// The most registers ptxas was allowed (`.maxnreg`, launch bounds).
    pub const MAXREG_COUNT: u8 = 0x1b;
    /// Per function (in `.nv.info`, older cubins): symbol, then its
    /// maximum stack size.
    pub const MAX_STACK_SIZE: u8 = 0x23;
    /// Per function (in `.nv.info`): symbol, then its register count.
    pub const REGCOUNT: u8 = 0x2f;
    /// How many `mbarrier` objects the kernel uses.
    pub const NUM_MBARRIERS: u8 = 0x38;
    /// Cluster dimensions (`__cluster_dims__`, `.reqnctapercluster`).
    pub const CTA_PER_CLUSTER: u8 = 0x3d;
    /// The kernel must be launched as a cluster.
    pub const EXPLICIT_CLUSTER: u8 = 0x3e;
    /// The most blocks in a cluster (`.maxclusterrank`).
    pub const MAX_CLUSTER_RANK: u8 = 0x3f;
    /// Named barriers used (highest id + 1).
    pub const NUM_BARRIERS: u8 = 0x4c;
}

/// Record formats.
const FMT_NONE: u8 = 1;
const FMT_BYTE: u8 = 2;
const FMT_HALF: u8 = 3;
const FMT_SIZED: u8 = 4;

/// An attribute's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A flag: the record's presence is its meaning.
    None,
    /// A one- or two-byte value.
    Int(u32),
    /// Sized data.
    Bytes(&'a [u8]),
}

impl Value<'_> {
    /// A small value, or the first `u32` of sized data.
    pub fn int(&self) -> Option<u32> {
        match *self {
            Value::Int(v) => Some(v),
            Value::Bytes(b) => u32_at(b, 0),
            Value::None => None,
        }
    }

    /// Sized data read as `u32`s (whole ones only).
    pub fn words(&self) -> Vec<u32> {
        match *self {
            Value::Bytes(b) => b
                .chunks_exact(4)
                .filter_map(|c| le::<4>(c, 0).map(u32::from_le_bytes))
                .collect(),
            Value::Int(v) => vec![v],
            Value::None => Vec::new(),
        }
    }
}

/// One attribute record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr<'a> {
    /// The attribute number (see [`attr`]).
    pub code: u8,
    /// Its value.
    pub value: Value<'a>,
}

/// The records of an `.nv.info` section, in order. A record of an
/// unknown format, or running past the section, ends the list.
pub fn records(section: &[u8]) -> impl Iterator<Item = Attr<'_>> + '_ {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        let head = section.get(at..at.checked_add(4)?)?;
        let (format, code) = (*head.first()?, *head.get(1)?);
        let half = u32::from(u16::from_le_bytes([*head.get(2)?, *head.get(3)?]));
        let value = match format {
            FMT_NONE => Value::None,
            FMT_BYTE => Value::Int(u32::from(*head.get(2)?)),
            FMT_HALF => Value::Int(half),
            FMT_SIZED => {
                let start = at.checked_add(4)?;
                let end = start.checked_add(usize::try_from(half).ok()?)?;
                let data = section.get(start..end)?;
                at = end;
                return Some(Attr {
                    code,
                    value: Value::Bytes(data),
                });
            }
            _ => return None,
        };
        at = at.checked_add(4)?;
        Some(Attr { code, value })
    })
}

/// For a per-function record of `.nv.info` (symbol index then value):
/// the symbol index and the value.
pub fn per_function(a: &Attr) -> Option<(u32, u32)> {
    match a.value {
        Value::Bytes(b) => Some((u32_at(b, 0)?, u32_at(b, 4)?)),
        _ => None,
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_format_and_stops_at_garbage() {
        let mut s = vec![FMT_SIZED, attr::REGCOUNT, 8, 0];
        s.extend(7u32.to_le_bytes());
        s.extend(40u32.to_le_bytes());
        s.extend([FMT_BYTE, attr::NUM_BARRIERS, 3, 0]);
        s.extend([FMT_HALF, attr::MAXREG_COUNT, 0x80, 0]);
        s.extend([FMT_NONE, attr::EXPLICIT_CLUSTER, 0, 0]);
        s.extend([9, 9, 9, 9, FMT_NONE, 1, 0, 0]);
        let r: Vec<_> = records(&s).collect();
        assert_eq!(r.len(), 4);
        assert_eq!(per_function(&r[0]), Some((7, 40)));
        assert_eq!(r[1].value, Value::Int(3));
        assert_eq!(r[2].value.int(), Some(128));
        assert_eq!(r[3].value, Value::None);
        // A sized record running past the end is dropped.
        assert_eq!(records(&[FMT_SIZED, 1, 9, 0, 1]).count(), 0);
    }
}
