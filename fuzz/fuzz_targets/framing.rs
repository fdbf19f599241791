#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mcp_lint_fuzz::harness::framing(data);
});
