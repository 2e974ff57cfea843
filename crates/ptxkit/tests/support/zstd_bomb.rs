//! Decompression bombs for the hostile-input tests: a zstd frame of RLE
//! blocks (4 bytes each that decode to 128 KiB) and a fatbin of one
//! zstd-compressed PTX entry holding it, whose header claims any size.
//! Shared by `crates/ptxkit/tests/memory.rs` (the library's peak memory)
//! and `crates/ptx-cli/tests/hostile.rs` (`ptx check`/`extract` under an
//! address-space limit), each of which includes this file with
//! `#[path = …] mod zstd_bomb;`.

/// Bytes one RLE block decodes to.
pub const BLOCK: u32 = 128 << 10;

/// A zstd frame of `rle_blocks` RLE blocks of [`BLOCK`] bytes of `b'a'`
/// each: a few bytes per block that decode to 32,768 times as much. The
/// frame header gives no content size and no checksum; a 128 KiB window.
pub fn zstd_frame(rle_blocks: usize) -> Vec<u8> {
    let mut f = 0xFD2F_B528u32.to_le_bytes().to_vec();
    f.extend([0x00, 7 << 3]);
    for i in 0..rle_blocks {
        let last = u32::from(i + 1 == rle_blocks);
        let h = last | (1 << 1) | (BLOCK << 3);
        f.extend(&h.to_le_bytes()[..3]);
        f.push(b'a');
    }
    f
}

/// A fatbin of one zstd-compressed PTX entry (sm_90) holding `frame`,
/// whose entry header says it decompresses to `claimed` bytes.
pub fn fatbin_of_frame(frame: &[u8], claimed: u64) -> Vec<u8> {
    let mut payload = frame.to_vec();
    payload.resize(payload.len().div_ceil(8) * 8, 0);
    let mut e = Vec::new();
    e.extend(1u16.to_le_bytes()); // kind: PTX
    e.extend(0x0101u16.to_le_bytes());
    e.extend(64u32.to_le_bytes()); // header size
    e.extend((payload.len() as u64).to_le_bytes());
    e.extend((frame.len() as u32).to_le_bytes());
    e.extend(0u32.to_le_bytes());
    e.extend(0u16.to_le_bytes());
    e.extend(8u16.to_le_bytes());
    e.extend(90u32.to_le_bytes()); // sm_90
    e.extend([0; 8]);
    e.extend(0x8011u64.to_le_bytes()); // flags: 64-bit, zstd-compressed
    e.extend([0; 8]);
    e.extend(claimed.to_le_bytes());
    e.extend(payload);
    let mut f = 0xBA55_ED50u32.to_le_bytes().to_vec();
    f.extend(1u16.to_le_bytes());
    f.extend(16u16.to_le_bytes());
    f.extend((e.len() as u64).to_le_bytes());
    f.extend(e);
    f
}

/// A fatbin whose one entry is a frame of `blocks` RLE blocks and whose
/// header claims `claimed` bytes.
#[allow(dead_code)] // not every including test crate uses every builder
pub fn zstd_bomb(blocks: usize, claimed: u64) -> Vec<u8> {
    fatbin_of_frame(&zstd_frame(blocks), claimed)
}
