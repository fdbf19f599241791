//! Replays the fuzzers' saved inputs (fuzz/regressions/<target>/*) through the same harness
//! the cargo-fuzz targets use, plus a bounded run of each target on inputs from a fixed
//! pseudo-random sequence, so a normal `cargo test` (stable toolchain, no sanitizer) keeps
//! every input that once mattered covered.

#[path = "../fuzz/src/harness.rs"]
mod harness;

use std::path::Path;

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 4] = [
    ("analyze_bytes", harness::analyze_bytes),
    ("analyze_mcp", harness::analyze_mcp),
    ("prefilter", harness::prefilter),
    ("framing", harness::framing),
];

#[test]
fn saved_inputs_replay_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut replayed = 0;
    for (name, target) in TARGETS {
        let dir = root.join(name);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("entry").path())
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "no saved inputs for {name}");
        for input in inputs {
            let bytes = std::fs::read(&input).expect("read input");
            let result = std::panic::catch_unwind(|| target(&bytes));
            assert!(result.is_ok(), "{name} fails on {}", input.display());
            replayed += 1;
        }
    }
    assert!(replayed >= TARGETS.len());
}

#[test]
fn a_bounded_run_on_pseudo_random_inputs() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, target) in TARGETS {
        let runs = if name == "analyze_mcp" { 40 } else { 300 };
        for _ in 0..runs {
            let len = (next() % 256) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let result = std::panic::catch_unwind(|| target(&bytes));
            assert!(result.is_ok(), "{name} fails on {bytes:?}");
        }
    }
}
