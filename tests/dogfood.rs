//! mcp-lint run over its own workspace reports nothing but the deliberate findings of the demo
//! server and the ui-tests fixtures (Clippy's dogfood test).

use std::process::Command;

/// Directories whose findings are deliberate.
const DELIBERATE: &[&str] = &["examples/demo-server/", "ui-tests/", "tests/fix-compile/"];

#[test]
fn own_workspace_reports_only_deliberate_findings() {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["check", ".", "--format", "json", "--exit-zero"])
        .current_dir(root)
        .output()
        .expect("mcp-lint runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "json report ({e}):\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics array");
    let stray: Vec<String> = diagnostics
        .iter()
        .filter(|d| {
            let path = d["path"].as_str().unwrap_or_default().replace('\\', "/");
            !DELIBERATE.iter().any(|p| path.starts_with(p))
        })
        .map(|d| {
            format!(
                "{}:{}: {} {}",
                d["path"], d["line"], d["name"], d["message"]
            )
        })
        .collect();
    assert!(
        stray.is_empty(),
        "findings outside the deliberate fixtures:\n{}",
        stray.join("\n")
    );
    let demo = diagnostics
        .iter()
        .filter(|d| {
            d["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("examples/demo-server/"))
        })
        .count();
    assert!(
        demo >= 5,
        "the demo server should show its deliberate mistakes, found {demo}"
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "--exit-zero with no tool failure"
    );
}
