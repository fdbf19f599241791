//! Hostile input, through the binary: whatever is on disk, mcp-lint finishes, says clearly what
//! it could not read or analyse, and still reports every other file's findings. Plus: the
//! output does not depend on the thread count, and a crate whose analysis panics becomes an
//! `internal_error` finding (exit 2) without losing the other crates.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::{mcp_lint, project, server_manifest, write, MCP001_SERVER};

/// An MCP package with one MCP001 finding in `src/lib.rs`, plus `extra` files.
fn server_with(extra: &[(&str, &[u8])]) -> tempfile::TempDir {
    let p = project(&[
        ("Cargo.toml", &server_manifest("server")),
        ("src/lib.rs", MCP001_SERVER),
    ]);
    for (rel, bytes) in extra {
        write(p.path(), rel, bytes);
    }
    p
}

/// `mcp-lint args…` in `dir` under the memory cap and the time limit.
#[cfg(unix)]
fn bounded(dir: &Path, args: &[&str]) -> support::Run {
    support::bounded::run(dir, args, b"")
}

fn has(run: &support::Run, code: &str, path: &str) -> bool {
    run.findings()
        .iter()
        .any(|(c, p, _)| c == code && p == path)
}

/// The run found exactly the server's own MCP001, and nothing else went wrong.
fn only_the_server_finding(run: &support::Run) {
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.findings(),
        vec![("MCP001".into(), "src/lib.rs".into(), 9)],
        "{run:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_hundred_thousand_levels_of_nesting() {
    let deep = format!(
        "fn f() {{ {}0{} }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let braces = format!("mod m {{ {} }}\n", "{".repeat(100_000));
    let p = server_with(&[
        ("src/deep.rs", deep.as_bytes()),
        ("src/braces.rs", braces.as_bytes()),
    ]);
    let run = bounded(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.findings(),
        vec![
            ("MCP900".into(), "src/braces.rs".into(), 1),
            ("MCP900".into(), "src/deep.rs".into(), 1),
            ("MCP001".into(), "src/lib.rs".into(), 9),
        ],
        "{run:?}"
    );
    assert!(run.stdout.contains("nesting deeper than 512"), "{run:?}");
}

/// Nesting that is not brackets: 100k closures, 50k `Vec<Vec<…>>`, 100k `&&&…u8`, chained calls.
/// Each is a `parse_error` (MCP900) before syn recurses into it; the other files are linted.
#[cfg(unix)]
#[test]
fn every_kind_of_deep_nesting_is_a_parse_error() {
    let files = [
        (
            "src/closures.rs",
            format!("fn f() {{ let _ = {}0; }}\n", "|| ".repeat(100_000)),
        ),
        (
            "src/generics.rs",
            format!(
                "type T = {}u8{};\n",
                "Vec<".repeat(50_000),
                ">".repeat(50_000)
            ),
        ),
        (
            "src/references.rs",
            format!("type T = {}u8;\n", "&".repeat(100_000)),
        ),
        (
            "src/patterns.rs",
            format!("fn f() {{ let {}x = 1; }}\n", "&".repeat(100_000)),
        ),
        (
            "src/calls.rs",
            format!("fn f() {{ x{}; }}\n", ".a()".repeat(100_000)),
        ),
        (
            "src/returns.rs",
            format!("type F = {}u8;\n", "fn() -> ".repeat(100_000)),
        ),
    ];
    let extra: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    let p = server_with(&extra);
    let run = support::bounded::run(p.path(), &["check", "--format", "json"], b"");
    assert_eq!(run.code, 1, "{run:?}");
    let mut expected: Vec<(String, String, u64)> = files
        .iter()
        .map(|(path, _)| ("MCP900".to_string(), path.to_string(), 1))
        .collect();
    expected.push(("MCP001".into(), "src/lib.rs".into(), 9));
    expected.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(run.findings(), expected, "{run:?}");
    assert!(run.stdout.contains("nesting deeper than 512"), "{run:?}");
}

#[cfg(unix)]
#[test]
fn a_fifty_megabyte_file() {
    let mut huge = String::with_capacity(50 << 20);
    let mut i = 0;
    while huge.len() < 50 << 20 {
        huge.push_str(&format!("pub fn f{i}(x: u32) -> u32 {{ x + {i} }}\n"));
        i += 1;
    }
    // In an MCP package: refused with a clear finding, the rest is linted.
    let p = server_with(&[("src/huge.rs", huge.as_bytes())]);
    let run = bounded(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(has(&run, "MCP900", "src/huge.rs"), "{run:?}");
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
    assert!(run.stdout.contains("larger than 8 MiB"), "{run:?}");
    // In a package that never mentions an MCP SDK: read and skipped.
    let q = project(&[("Cargo.toml", "[package]\nname = \"big\"\n")]);
    write(q.path(), "src/lib.rs", &huge);
    let run = bounded(q.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 1);
}

#[cfg(unix)]
#[test]
fn non_utf8_and_binary_files_named_rs() {
    let p = server_with(&[
        ("src/latin1.rs", b"// caf\xe9\nfn main() {}\n"),
        (
            "src/blob.rs",
            b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\x00rmcp",
        ),
        ("src/utf16.rs", b"\xff\xfeu\x00s\x00e\x00"),
    ]);
    let run = bounded(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let messages: Vec<(String, String)> = run.json()["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().expect("path").to_string(),
                d["message"].as_str().expect("message").to_string(),
            )
        })
        .collect();
    let message = |path: &str| {
        messages
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| panic!("no finding for {path}: {run:?}"))
    };
    assert!(message("src/blob.rs").contains("binary"), "{run:?}");
    assert!(
        message("src/latin1.rs").contains("not valid UTF-8"),
        "{run:?}"
    );
    // UTF-16 has NUL bytes: reported as binary, not Rust source.
    assert!(message("src/utf16.rs").contains("binary"), "{run:?}");
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
    // The human report renders them without a snippet and without failing.
    let human = bounded(p.path(), &["check", "--color", "never"]);
    assert_eq!(human.code, 1, "{human:?}");
    assert!(human.stdout.contains("src/blob.rs"), "{human:?}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_dangling_links() {
    use std::os::unix::fs::symlink;
    let p = server_with(&[]);
    let root = p.path();
    symlink(root.join("src"), root.join("src/again")).expect("symlink");
    symlink(root, root.join("src/up")).expect("symlink");
    symlink(root.join("src/self.rs"), root.join("src/self.rs")).expect("symlink");
    symlink(root.join("src/gone"), root.join("src/dangling.rs")).expect("symlink");
    let run = bounded(root, &["check", "--format", "json"]);
    assert_eq!(run.code, 2, "{run:?}");
    for expected in [
        "warning: symlink loop: src/again points to its ancestor src; not followed",
        "warning: symlink loop: src/up points to its ancestor .; not followed",
        "error: could not read src/self.rs: ",
        "error: could not read src/dangling.rs: ",
    ] {
        assert!(run.stderr.contains(expected), "{expected}\n{run:?}");
    }
    assert_eq!(
        run.findings(),
        vec![("MCP001".into(), "src/lib.rs".into(), 9)],
        "{run:?}"
    );
}

/// Item 10: a symlink to an ancestor loses no file (everything below it is reached through the
/// ancestor), so it is a warning, not a failure: exit 1 for the finding, 0 with `--exit-zero`.
#[cfg(unix)]
#[test]
fn a_symlink_to_an_ancestor_is_a_warning_not_a_failure() {
    let p = server_with(&[]);
    std::os::unix::fs::symlink(p.path(), p.path().join("src/up")).expect("symlink");
    let warning = "warning: symlink loop: src/up points to its ancestor .; not followed";
    let run = support::bounded::run(p.path(), &["check", "--format", "json"], b"");
    only_the_server_finding(&run);
    assert_eq!(run.stderr.trim(), warning, "{run:?}");
    let run = support::bounded::run(p.path(), &["check", "--exit-zero"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains(warning), "{run:?}");
}

/// Permissions stop a normal user; root reads anyway. Either way: no panic, every readable
/// file is linted, and what could not be read is named (exit 2).
#[cfg(unix)]
#[test]
fn unreadable_files_and_directories() {
    use std::os::unix::fs::PermissionsExt;
    let p = server_with(&[
        ("src/secret.rs", b"pub fn s() {}\n"),
        ("src/locked/inner.rs", b"pub fn i() {}\n"),
    ]);
    let chmod = |rel: &str, mode: u32| {
        std::fs::set_permissions(p.path().join(rel), std::fs::Permissions::from_mode(mode))
            .expect("chmod")
    };
    chmod("src/secret.rs", 0o000);
    chmod("src/locked", 0o000);
    let root_reads_anyway = std::fs::read(p.path().join("src/secret.rs")).is_ok();
    let run = bounded(p.path(), &["check", "--format", "json"]);
    chmod("src/locked", 0o755);
    chmod("src/secret.rs", 0o644);
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
    if root_reads_anyway {
        // Running as root: permissions are not enforced, so everything was read.
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(run.json()["summary"]["files"], 3, "{run:?}");
    } else {
        assert_eq!(run.code, 2, "{run:?}");
        assert!(
            run.stderr
                .contains("error: could not read src/secret.rs: Permission denied"),
            "{run:?}"
        );
        assert!(
            run.stderr
                .contains("error: could not read src/locked: Permission denied"),
            "{run:?}"
        );
    }
}

/// What no permission bit can make readable, even for root: a directory named like a Rust
/// file and a FIFO (reading it would block forever) are not read at all.
#[cfg(unix)]
#[test]
fn directories_and_fifos_named_rs_are_not_read() {
    let p = server_with(&[("src/dir.rs/inner.rs", b"pub fn i() {}\n")]);
    let fifo = p.path().join("src/pipe.rs");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let run = bounded(p.path(), &["check", "--format", "json"]);
    only_the_server_finding(&run);
    // lib.rs and dir.rs/inner.rs; the FIFO is neither a file nor a directory.
    assert_eq!(run.json()["summary"]["files"], 2, "{run:?}");
    if !made {
        eprintln!("mkfifo unavailable: the FIFO case was not exercised");
    }
}

#[cfg(unix)]
#[test]
fn empty_and_inner_attribute_only_files() {
    let p = server_with(&[
        ("src/empty.rs", b""),
        (
            "src/attrs.rs",
            b"#![allow(dead_code)]\n#![deny(unsafe_code)]\n",
        ),
        ("src/doc.rs", b"//! Only a doc comment.\n"),
        ("src/bom.rs", b"\xef\xbb\xbf"),
        ("src/shebang.rs", b"#!/usr/bin/env run-cargo-script\n"),
    ]);
    let run = bounded(p.path(), &["check", "--format", "json"]);
    only_the_server_finding(&run);
    assert_eq!(run.json()["summary"]["files"], 6, "{run:?}");
}

/// Many crates, every output format: `--threads 1`, `2` and `8` print the same bytes.
#[test]
fn output_does_not_depend_on_the_thread_count() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    support::copy_tree(&repo.join("tests/eval"), &tmp.path().join("eval"));
    support::copy_tree(&repo.join("examples/demo-server"), &tmp.path().join("demo"));
    support::copy_tree(&repo.join("ui-tests"), &tmp.path().join("ui"));
    for format in ["human", "concise", "json"] {
        let runs: Vec<support::Run> = ["1", "2", "8"]
            .iter()
            .map(|threads| {
                mcp_lint(
                    tmp.path(),
                    &[
                        "check",
                        "--no-cache",
                        "--color",
                        "never",
                        "--format",
                        format,
                        "--threads",
                        threads,
                        "-W",
                        "all",
                    ],
                )
            })
            .collect();
        assert!(runs[0].stdout.lines().count() > 100, "{:?}", runs[0]);
        for run in &runs[1..] {
            assert_eq!(run.code, runs[0].code);
            assert!(run.stdout == runs[0].stdout, "{format} output differs");
            assert_eq!(run.stderr, runs[0].stderr);
        }
    }
}

/// The catching path needs an analysis that panics, and none does by design, so the test
/// drives the driver's seam (`check_with`) with a closure that panics on one crate and runs
/// the real analysis on the others. Production code has no hook for this.
#[test]
fn a_panicking_crate_is_an_internal_error_and_the_others_are_kept() {
    use lints::{CrateInput, FileReport, Options};
    use mcp_lint::cli::{self, Command};

    let p = project(&[
        ("good/Cargo.toml", &server_manifest("good")),
        ("good/src/lib.rs", MCP001_SERVER),
        ("bomb/Cargo.toml", &server_manifest("bomb")),
        ("bomb/src/lib.rs", MCP001_SERVER),
        ("bomb/src/other.rs", "pub fn o() {}\n"),
    ]);
    let analyze = |program: &[CrateInput], options: &Options| -> Vec<FileReport> {
        if program
            .iter()
            .any(|input| input.root.as_ref().is_some_and(|r| r.ends_with("bomb")))
        {
            panic!("injected failure");
        }
        lints::analyze_program(program, options)
    };
    let argv = ["mcp-lint", "check", "--format", "json", "--no-cache"];
    let Command::Check(args) = cli::parse(argv).expect("args").command else {
        unreachable!("a check command")
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mcp_lint::commands::check::check_with(&args, p.path(), &mut out, &mut err, &analyze);
    assert_eq!(code, 2, "{}", String::from_utf8_lossy(&err));
    let doc: serde_json::Value = serde_json::from_slice(&out).expect("json");
    let found: Vec<(String, String, String)> = doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().expect("code").to_string(),
                d["path"].as_str().expect("path").to_string(),
                d["message"].as_str().expect("message").to_string(),
            )
        })
        .collect();
    assert_eq!(found.len(), 3, "{found:?}");
    for (i, path) in ["bomb/src/lib.rs", "bomb/src/other.rs"].iter().enumerate() {
        assert_eq!(found[i].0, "MCP901");
        assert_eq!(found[i].1, *path);
        assert!(found[i].2.contains("injected failure"), "{found:?}");
    }
    assert_eq!(found[2].0, "MCP001");
    assert_eq!(found[2].1, "good/src/lib.rs");
}

/// A file URI for `path`.
#[cfg(unix)]
fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn error_code(answer: &Value) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {answer}"))
}

/// The language server over its stdio framing: malformed messages are answered and it goes on;
/// a deeply nested document is a parse_error; a `Content-Length` of a terabyte is answered
/// without allocating it (the memory cap would abort the server).
#[cfg(unix)]
#[test]
fn the_language_server_survives_hostile_messages() {
    use support::bounded::{Framing, Server};
    let p = server_with(&[]);
    // In the workspace, found when the package is linted: neither is read.
    std::os::unix::fs::symlink("/dev/zero", p.path().join("src/zero.rs")).expect("symlink");
    mkfifo(&p.path().join("src/pipe.rs"));
    let root = p.path().canonicalize().expect("canonical");
    let mut server = Server::start(&root, &["server"], Framing::Lsp);
    server.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "capabilities": {}, "rootUri": file_uri(&root) },
    }));
    server.answer(&json!(1));
    server.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));

    let raw = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let cases: [(String, i64); 5] = [
        (raw("{not json"), -32700),
        (raw("[]"), -32600),
        // A body shorter than its JSON: the rest runs into the next header, which is found.
        (
            "Content-Length: 5\r\n\r\n{\"jsonrpc\":\"2.0\"}".into(),
            -32700,
        ),
        (
            raw(r#"{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}"#),
            -32600,
        ),
        ("X-No-Length: 1\r\n\r\n".into(), -32700),
    ];
    for (bytes, code) in &cases {
        server.write(bytes.as_bytes());
        let answer = server.answer(&Value::Null);
        assert_eq!(error_code(&answer), *code, "{bytes:?}: {answer}");
    }
    server.write(raw(r#"{"jsonrpc":"2.0","id":7,"method":8}"#).as_bytes());
    assert_eq!(error_code(&server.answer(&json!(7))), -32600);

    // Still serving: a document of 100k nested closures is one parse_error, the server lives.
    let uri = file_uri(&root.join("src/lib.rs"));
    let text = format!("fn f() {{ let _ = {}0; }}\n", "|| ".repeat(100_000));
    server.send(&json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": text } },
    }));
    let published = server.wait_for("diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri)
    });
    let diagnostics = published["params"]["diagnostics"]
        .as_array()
        .expect("array");
    assert_eq!(diagnostics.len(), 1, "{published}");
    assert_eq!(diagnostics[0]["code"], "parse_error", "{published}");
    server
        .send(&json!({ "jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": {} }));
    assert_eq!(error_code(&server.answer(&json!(9))), -32601);

    // A terabyte announced: answered at once, then skipped to the end of the input.
    server.write(b"Content-Length: 1000000000000\r\n\r\n{}");
    let answer = server.answer(&Value::Null);
    assert_eq!(error_code(&answer), -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("at most 64 MiB"),
        "{answer}"
    );
    // No `exit` came: the client went away, exit code 1.
    assert_eq!(server.close(), 1);
}

/// `mcp-lint mcp` in `dir` under the caps, initialized with the client `capabilities`.
#[cfg(unix)]
fn mcp_server(dir: &Path, capabilities: Value) -> support::bounded::Server {
    use support::bounded::{Framing, Server};
    let mut server = Server::start(dir, &["mcp"], Framing::Lines);
    server.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": capabilities,
            "clientInfo": { "name": "hostile", "version": "1" },
        },
    }));
    server.answer(&json!(1));
    server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    server
}

/// The MCP server over its stdio framing: -32700 for what is not JSON, -32600 with the id,
/// -32602 for `tools/call` params that do not fit; a line of 65 MiB is answered without
/// holding it; a deeply nested `source` is a parse_error; closing stdin ends the server.
#[cfg(unix)]
#[test]
fn the_mcp_server_survives_hostile_messages() {
    let p = server_with(&[]);
    let mut server = mcp_server(p.path(), json!({}));

    server.write(b"{not json\n");
    assert_eq!(error_code(&server.answer(&Value::Null)), -32700);
    server.write(b"{\"jsonrpc\":\"2.0\",\"id\":5}\n");
    assert_eq!(error_code(&server.answer(&json!(5))), -32600);
    for (id, params) in [
        (2, json!({})),
        (3, json!({ "name": 7 })),
        (4, json!({ "name": "lint", "arguments": [] })),
    ] {
        server
            .send(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }));
        let answer = server.answer(&json!(id));
        assert_eq!(error_code(&answer), -32602, "{answer}");
    }

    let mut long = vec![b' '; 65 << 20];
    long.push(b'\n');
    server.write(&long);
    drop(long);
    let answer = server.answer(&Value::Null);
    assert_eq!(error_code(&answer), -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("longer than 64 MiB"),
        "{answer}"
    );

    let source = format!("fn f() {{ let _ = {}0; }}\n", "|| ".repeat(100_000));
    server.send(&json!({
        "jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": { "name": "lint", "arguments": { "source": source } },
    }));
    let answer = server.answer(&json!(6));
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(
        text.contains("parse_error") && text.contains("nesting deeper"),
        "{answer}"
    );
    assert_eq!(server.close(), 0);
}

/// The MCP server reads only inside the client's roots, or its working directory when the
/// client declares none: `/etc/passwd`, a file of another directory, a `config` outside, and a
/// symlink inside pointing outside are refused (isError naming the roots, or "not read"), and
/// nothing of theirs is echoed.
#[cfg(unix)]
#[test]
fn the_mcp_server_reads_only_inside_its_roots() {
    let p = server_with(&[]);
    let elsewhere = tempfile::tempdir().expect("tempdir");
    write(
        elsewhere.path(),
        "secret.rs",
        "SECRET LINE that must not leak (\n",
    );
    let secret = elsewhere.path().join("secret.rs");
    std::os::unix::fs::symlink(&secret, p.path().join("src/leak.rs")).expect("symlink");
    let call = |server: &mut support::bounded::Server, id: u64, arguments: Value| {
        server.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "lint", "arguments": arguments },
        }));
        id
    };
    let text = |answer: &Value| {
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("a tool result: {answer}"))
            .to_string()
    };

    // No roots declared: the working directory is the root.
    let mut server = mcp_server(p.path(), json!({}));
    let secret_text = secret.display().to_string();
    for (id, arguments) in [
        (2, json!({ "paths": ["/etc/passwd"] })),
        (3, json!({ "paths": [secret_text] })),
        (4, json!({ "paths": ["src"], "config": "/etc/passwd" })),
    ] {
        call(&mut server, id, arguments);
        let answer = server.answer(&json!(id));
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let text = text(&answer);
        assert!(
            text.contains("outside the directories this server reads")
                && text.contains("working directory"),
            "{text}"
        );
        assert!(
            !text.contains("root:") && !text.contains("SECRET"),
            "{text}"
        );
    }
    call(&mut server, 5, json!({ "paths": ["src"] }));
    let answer = server.answer(&json!(5));
    let found = text(&answer);
    assert!(found.contains("not read: src/leak.rs"), "{found}");
    assert!(
        found.contains("MCP001") && !found.contains("SECRET"),
        "{found}"
    );
    assert_eq!(server.close(), 0);

    // Roots declared: the client's roots, asked for on each call, replace the directory.
    let mut server = mcp_server(p.path(), json!({ "roots": { "listChanged": false } }));
    let elsewhere_uri = format!(
        "file://{}",
        elsewhere.path().canonicalize().expect("c").display()
    );
    for (id, arguments, allowed) in [
        (6, json!({ "paths": [secret_text] }), true),
        (7, json!({ "paths": ["src"] }), false),
    ] {
        call(&mut server, id, arguments);
        let request = server.wait_for("roots/list", |m| m["method"] == "roots/list");
        server.send(&json!({
            "jsonrpc": "2.0", "id": request["id"],
            "result": { "roots": [{ "uri": elsewhere_uri, "name": "elsewhere" }] },
        }));
        let answer = server.answer(&json!(id));
        let text = text(&answer);
        assert_eq!(answer["result"]["isError"] == true, !allowed, "{answer}");
        if !allowed {
            assert!(text.contains("the client's roots"), "{text}");
        }
    }
    assert_eq!(server.close(), 0);
}

/// `mkfifo path`; the tests that need one fail loudly without it.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo {}", path.display());
}

/// Unbounded or blocking reads, named on the command line: `/dev/zero` (itself and through a
/// symlink) and a FIFO as the path, `--config`, `--baseline`, and `baseline -o /dev/full` (which
/// reads the old file first). Each is exit 2 with a clear error, under the memory cap and the
/// time limit: nothing is read to the end, no FIFO is opened.
#[cfg(unix)]
#[test]
fn devices_and_fifos_named_on_the_command_line_are_errors_not_reads() {
    let p = server_with(&[]);
    let dir = p.path();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.rs")).expect("symlink");
    mkfifo(&dir.join("pipe.rs"));
    mkfifo(&dir.join("pipe.toml"));
    let cases: [(&[&str], &str); 9] = [
        (
            &["check", "/dev/zero"],
            "/dev/zero: a character device, not a regular file",
        ),
        (
            &["check", "zero.rs"],
            "zero.rs: a character device, not a regular file",
        ),
        (&["check", "pipe.rs"], "pipe.rs: a FIFO, not a regular file"),
        (
            &["check", "--config", "/dev/zero", "src"],
            "a character device, not a regular file",
        ),
        (
            &["check", "--config", "pipe.toml", "src"],
            "a FIFO, not a regular file",
        ),
        (
            &["check", "--baseline", "/dev/zero", "src"],
            "a character device, not a regular file",
        ),
        (
            &["check", "--baseline", "pipe.toml", "src"],
            "a FIFO, not a regular file",
        ),
        (
            &["baseline", "-o", "/dev/full", "src"],
            "a character device, not a regular file",
        ),
        (
            &["baseline", "-o", "pipe.toml", "src"],
            "a FIFO, not a regular file",
        ),
    ];
    for (args, expected) in cases {
        let run = support::bounded::run(dir, args, b"");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(
            run.stderr.contains(expected),
            "{args:?}: {expected}\n{run:?}"
        );
    }
    // The other named paths are still linted.
    let run = support::bounded::run(dir, &["check", "--format", "json", "pipe.rs", "src"], b"");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
}

/// Found in a walk: a symlink to `/dev/zero` named like a Rust file is not read; an MCP `lint`
/// call on a FIFO is an error result, and the server still ends when stdin closes.
#[cfg(unix)]
#[test]
fn devices_and_fifos_found_by_a_walk_or_an_mcp_call_are_not_read() {
    let p = server_with(&[]);
    let dir = p.path();
    std::os::unix::fs::symlink("/dev/zero", dir.join("src/zero.rs")).expect("symlink");
    let run = support::bounded::run(dir, &["check", "--format", "json"], b"");
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
    assert!(!run.stdout.contains("zero.rs"), "{run:?}");

    mkfifo(&dir.join("src/pipe.rs"));
    let mut server = mcp_server(dir, json!({}));
    server.send(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "lint", "arguments": { "paths": ["src/pipe.rs", "src/lib.rs"] } },
    }));
    let answer = server.answer(&json!(2));
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(text.contains("a FIFO, not a regular file"), "{answer}");
    assert!(text.contains("MCP001"), "{answer}");
    // A link to `/dev/zero` inside the root, named in the call: refused, not read.
    server.send(&json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "lint", "arguments": { "paths": ["src/zero.rs"] } },
    }));
    let answer = server.answer(&json!(3));
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(server.close(), 0);
}

/// `--fix` on a file of `\r\n` lines: the fixed file has no bare `\n` (item: mixed endings).
#[cfg(unix)]
#[test]
fn fix_keeps_crlf_line_endings() {
    let crlf = MCP001_SERVER.replace('\n', "\r\n");
    let p = server_with(&[("src/lib.rs", crlf.as_bytes())]);
    let run = support::bounded::run(p.path(), &["check", "--fix"], b"");
    assert!(run.stderr.contains("fixed 1 finding in 1 file"), "{run:?}");
    let fixed = std::fs::read_to_string(p.path().join("src/lib.rs")).expect("read");
    assert_ne!(fixed, crlf, "nothing was fixed");
    let bare = fixed
        .match_indices('\n')
        .filter(|(i, _)| !fixed[..*i].ends_with('\r'));
    assert_eq!(bare.count(), 0, "{fixed:?}");
}

/// `--fix` and file identity: owner, group and mode kept (as root, of another user's file);
/// a read-only file, a hard-linked file and a symlink out of the named tree are left alone
/// with a warning, and the count says so; a symlink inside the tree is written through.
#[cfg(unix)]
#[test]
fn fix_keeps_owners_links_and_read_only_files() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "lib.rs", MCP001_SERVER);
    let p = project(&[
        ("Cargo.toml", &server_manifest("server")),
        (
            "src/lib.rs",
            "pub mod owned;\npub mod ro;\npub mod linked;\npub mod out;\npub mod inside;\n",
        ),
        ("src/owned.rs", MCP001_SERVER),
        ("src/ro.rs", MCP001_SERVER),
        ("src/linked.rs", MCP001_SERVER),
        ("real/inside.rs", MCP001_SERVER),
    ]);
    let dir = p.path();
    let src = dir.join("src");
    std::fs::set_permissions(src.join("ro.rs"), std::fs::Permissions::from_mode(0o444))
        .expect("chmod");
    std::fs::hard_link(src.join("linked.rs"), outside.path().join("twin.rs")).expect("link");
    std::os::unix::fs::symlink(outside.path().join("lib.rs"), src.join("out.rs")).expect("ln");
    std::os::unix::fs::symlink(dir.join("real/inside.rs"), src.join("inside.rs")).expect("ln");
    std::fs::set_permissions(src.join("owned.rs"), std::fs::Permissions::from_mode(0o640))
        .expect("chmod");
    // As root: the file belongs to another user, who must still own it after the fix.
    let root = std::fs::metadata(dir).expect("meta").uid() == 0;
    if root {
        std::os::unix::fs::chown(src.join("owned.rs"), Some(4321), Some(4321)).expect("chown");
    }
    let before = std::fs::metadata(src.join("owned.rs")).expect("meta");

    let run = support::bounded::run(dir, &["check", "--fix"], b"");
    for warning in [
        "warning: src/ro.rs was not fixed: it is read-only",
        "warning: src/linked.rs was not fixed: it has 2 hard links, which a rewrite would split",
        "warning: src/out.rs was not fixed: it is a symlink to ",
    ] {
        assert!(run.stderr.contains(warning), "{warning}\n{run:?}");
    }
    assert!(
        run.stderr.contains("fixed 2 findings in 2 files"),
        "{run:?}"
    );

    let after = std::fs::metadata(src.join("owned.rs")).expect("meta");
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_eq!(after.mode() & 0o777, 0o640);
    let unchanged = |path: &Path| std::fs::read_to_string(path).expect("read") == MCP001_SERVER;
    assert!(!unchanged(&src.join("owned.rs")), "owned.rs was fixed");
    assert!(unchanged(&src.join("ro.rs")));
    assert!(unchanged(&src.join("linked.rs")));
    assert_eq!(
        std::fs::metadata(src.join("linked.rs")).expect("m").nlink(),
        2
    );
    assert!(unchanged(&outside.path().join("lib.rs")));
    // Inside the tree: fixed through the link, which stays a link.
    assert!(!unchanged(&dir.join("real/inside.rs")));
    assert!(std::fs::symlink_metadata(src.join("inside.rs"))
        .expect("m")
        .file_type()
        .is_symlink());
}

/// Item 10's smaller points: `--threads` has an upper bound; a TOML error quotes at most 200
/// characters of a multi-megabyte line.
#[cfg(unix)]
#[test]
fn threads_and_toml_errors_are_bounded() {
    let p = server_with(&[]);
    let run = support::bounded::run(p.path(), &["check", "--threads", "99999"], b"");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("1024"), "{run:?}");

    // A TOML error quotes the line: of a 4 MiB line, a few hundred characters.
    for (file, text, expected) in [
        ("mcp-lint.toml", "x = \"", "could not parse mcp-lint.toml"),
        (
            "Cargo.toml",
            "[package]\nname = \"",
            "could not parse Cargo.toml",
        ),
    ] {
        let _ = std::fs::remove_file(p.path().join("mcp-lint.toml"));
        write(p.path(), file, format!("{text}{}\n", "a".repeat(4 << 20)));
        let run = support::bounded::run(p.path(), &["check"], b"");
        assert_eq!(run.code, 2, "{run:?}");
        assert!(run.stderr.contains(expected), "{run:?}");
        assert!(
            run.stderr.len() < 4096,
            "{} bytes of stderr",
            run.stderr.len()
        );
    }
}

/// Item 10: a cache entry is trusted only when its checksum matches. "deny" edited to "allow"
/// in the stored findings, or a crate's verdict edited to "nothing to analyse", changes
/// neither the findings nor the exit code: the edited entries are misses.
#[cfg(unix)]
#[test]
fn edited_cache_entries_are_misses() {
    let p = server_with(&[]);
    // Old enough for the metadata entries (`s/…`) to be written: both kinds get edited.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let args = ["check", "--format", "json"];
    let cold = support::bounded::run(p.path(), &args, b"");
    only_the_server_finding(&cold);
    let mut edited = 0;
    for entry in support::files_under(&p.path().join(".cache")) {
        let text = std::fs::read_to_string(&entry).expect("entry");
        let mut new = text.replace("\"deny\"", "\"allow\"");
        if let Some(at) = new.find("{\"Analysed\":\"") {
            let end = at + new[at..].find("\"}").expect("the verdict's end") + 2;
            new.replace_range(at..end, "\"Skipped\"");
        }
        if new != text {
            std::fs::write(&entry, new).expect("edit");
            edited += 1;
        }
    }
    assert_eq!(edited, 2, "one findings entry, one metadata entry");
    let warm = support::bounded::run(p.path(), &args, b"");
    assert_eq!(warm.code, 1, "{warm:?}");
    assert_eq!(warm.stdout, cold.stdout);
}

/// Item 10: `--message-format=json` asks `cargo metadata` who owns each file, but never through
/// a toolchain the linted repository selects: its `rust-toolchain.toml` names a program of
/// its own as the toolchain (`path = …`), which must not run. Not run from cargo (`$CARGO`
/// unset), mcp-lint runs the cargo the user gets outside any repository.
#[cfg(unix)]
#[test]
fn json_messages_never_run_the_repository_s_toolchain() {
    let rustup = std::process::Command::new("rustup")
        .arg("--version")
        .env("PATH", support::path_with_our_binaries())
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        rustup,
        "this test needs rustup on PATH: the toolchain selection it guards against is rustup's"
    );
    let p = server_with(&[]);
    let evil = tempfile::tempdir().expect("tempdir");
    let marker = evil.path().join("ran");
    for tool in ["cargo", "rustc"] {
        let script = evil.path().join("bin").join(tool);
        write(
            evil.path(),
            &format!("bin/{tool}"),
            format!("#!/bin/sh\necho \"$0\" >> '{}'\nexit 1\n", marker.display()),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    write(
        p.path(),
        "rust-toolchain.toml",
        format!("[toolchain]\npath = \"{}\"\n", evil.path().display()),
    );
    let mut cmd = support::bounded::command(p.path(), &["check", "--message-format=json"]);
    cmd.env_remove("CARGO").env_remove("RUSTUP_TOOLCHAIN");
    let run = support::bounded::run_command(cmd, b"");
    assert!(!marker.exists(), "the repository's toolchain ran: {run:?}");
    assert_eq!(run.code, 1, "{run:?}");
    let message: Value = run
        .stdout
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .expect("a JSON message");
    assert!(
        message["package_id"]
            .as_str()
            .is_some_and(|id| id.contains("server")),
        "cargo metadata named the owner: {message}\n{run:?}"
    );
}

/// Item 5, through the binary and without a timing window: an edit made after `--fix` read the
/// file is kept, and the file is left alone with a warning. The run is held still by its own
/// stderr: it prints its problems (here, megabytes of them: thousands of dangling links named
/// like Rust files) after reading every file and before fixing any, and the pipe holds only
/// 64 KiB. Once the first problem line arrives, the files have been read and the run is about
/// to block on the full pipe; the test edits the file, then drains the pipe.
#[cfg(unix)]
#[test]
fn an_edit_made_while_fix_runs_is_kept() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let p = server_with(&[]);
    let long = "x".repeat(200);
    for i in 0..12_000 {
        let link = p.path().join(format!("src/{long}{i:05}.rs"));
        std::os::unix::fs::symlink(p.path().join("gone"), link).expect("symlink");
    }
    let mut child = support::bounded::command(p.path(), &["check", "--fix"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    stderr.read_line(&mut first).expect("a first line");
    assert!(first.starts_with("error: could not read src/x"), "{first}");

    let lib = p.path().join("src/lib.rs");
    let edited = format!("{MCP001_SERVER}// saved by an editor meanwhile\n");
    std::fs::write(&lib, &edited).expect("edit");
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("the rest");
    let code = support::bounded::code(support::bounded::wait(&mut child, "check --fix"));

    assert!(
        rest.len() > 1 << 20,
        "{} bytes: the pipe may not have filled",
        rest.len()
    );
    assert!(
        rest.contains("warning: src/lib.rs was not fixed: it changed while mcp-lint was fixing it"),
        "{}",
        &rest[rest.len().saturating_sub(2000)..]
    );
    assert!(
        !rest.contains("fixed 1 finding"),
        "{}",
        &rest[rest.len() - 2000..]
    );
    assert_eq!(code, 2, "the dangling links are problems");
    assert_eq!(std::fs::read_to_string(&lib).expect("read"), edited);
}

/// Item 10: a Cargo.toml of 100,000 dependencies is read in linear time (a quadratic check
/// took 22 s in a release build; the time limit of the bounded run catches it in a debug one).
#[cfg(unix)]
#[test]
fn a_manifest_of_a_hundred_thousand_dependencies() {
    let mut manifest = server_manifest("server");
    for i in 0..100_000 {
        manifest.push_str(&format!("dep{i} = \"1.{i}\"\n"));
    }
    let p = project(&[("Cargo.toml", &manifest), ("src/lib.rs", MCP001_SERVER)]);
    let run = support::bounded::run(p.path(), &["check", "--format", "json"], b"");
    only_the_server_finding(&run);
}

/// Item 10: an absolute `exclude` glob leaves out what it names (it was silently ignored).
#[cfg(unix)]
#[test]
fn an_absolute_exclude_glob_excludes() {
    let p = server_with(&[("src/gen/made.rs", MCP001_SERVER.as_bytes())]);
    // A module of the library (a file no `mod` declares is not compiled, so not linted).
    write(
        p.path(),
        "src/lib.rs",
        format!("{MCP001_SERVER}mod gen {{\n    mod made;\n}}\n"),
    );
    let root = p.path().canonicalize().expect("canonical");
    let run = support::bounded::run(&root, &["check", "--format", "json"], b"");
    assert!(has(&run, "MCP001", "src/gen/made.rs"), "{run:?}");
    write(
        &root,
        "mcp-lint.toml",
        format!("exclude = [\"{}/src/gen/**\"]\n", root.display()),
    );
    let run = support::bounded::run(&root, &["check", "--format", "json"], b"");
    only_the_server_finding(&run);
}

/// Item 10: `fix_preview` on files outside the working directory (in a root the client
/// declared) shows them with git-style headers, `a/tmp/…`, never `a//tmp/…`.
#[cfg(unix)]
#[test]
fn fix_preview_headers_of_absolute_paths() {
    let here = tempfile::tempdir().expect("tempdir");
    let there = server_with(&[]);
    let there_root = there.path().canonicalize().expect("canonical");
    let mut server = mcp_server(here.path(), json!({ "roots": { "listChanged": false } }));
    let lib = there_root.join("src/lib.rs");
    server.send(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "fix_preview", "arguments": { "paths": [lib.display().to_string()] } },
    }));
    let request = server.wait_for("roots/list", |m| m["method"] == "roots/list");
    server.send(&json!({
        "jsonrpc": "2.0", "id": request["id"],
        "result": { "roots": [{ "uri": file_uri(&there_root), "name": "there" }] },
    }));
    let answer = server.answer(&json!(2));
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a tool result: {answer}"));
    let shown = lib.display().to_string();
    let shown = shown.trim_start_matches('/');
    assert!(
        text.contains(&format!("--- a/{shown}\n+++ b/{shown}\n")),
        "{text}"
    );
    assert!(!text.contains("a//"), "{text}");
    assert_eq!(server.close(), 0);
}

/// Item 10: `--fix` whose write fails (here: the file-size limit is 0, so the temporary file
/// cannot be written, even by root) says so, exits 2, counts nothing as fixed, and leaves the
/// file and no temporary file behind.
#[cfg(unix)]
#[test]
fn a_failed_fix_write_is_an_error_and_not_counted() {
    let p = server_with(&[]);
    let cmd = support::bounded::command_after(
        "trap '' XFSZ; ulimit -f 0; ",
        p.path(),
        &["check", "--fix", "--no-cache"],
    );
    let run = support::bounded::run_command(cmd, b"");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("error: could not write src/lib.rs: "),
        "{run:?}"
    );
    assert!(!run.stderr.contains("fixed "), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(p.path().join("src/lib.rs")).expect("read"),
        MCP001_SERVER
    );
    let left: Vec<_> = support::files_under(&p.path().join("src"))
        .into_iter()
        .filter(|f| f.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 4: a warm run of a package of 5,000 files, one in ten with a finding, replays the cold
/// run byte for byte (each cached report is matched to its file by a map, not a scan of the
/// crate's files). How warm runs scale is measured, not timed here: `bench/run.sh cache` holds
/// warm / cold CPU to at most 0.2 at 10k and 50k files, and warm CPU per file flat between them.
#[cfg(unix)]
#[test]
fn a_warm_run_of_five_thousand_files_replays_the_cold_one() {
    let p = server_with(&[]);
    // Each file a module of the library: `mod d0 { mod f0; .. }` after the server's code.
    let mut lib = MCP001_SERVER.to_string();
    for d in 0..10 {
        lib.push_str(&format!("mod d{d} {{\n"));
        for i in d * 500..(d + 1) * 500 {
            lib.push_str(&format!("    mod f{i};\n"));
        }
        lib.push_str("}\n");
    }
    write(p.path(), "src/lib.rs", lib.as_bytes());
    for i in 0..5_000 {
        let text = if i % 10 == 0 {
            MCP001_SERVER.to_string()
        } else {
            format!("pub fn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n")
        };
        write(
            p.path(),
            &format!("src/d{}/f{i}.rs", i / 500),
            text.as_bytes(),
        );
    }
    // Old enough for the files' stamps to be recorded, so the warm run reads only the files
    // it shows findings in.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let args = ["check", "--format", "json"];
    let cold = bounded(p.path(), &args);
    assert_eq!(cold.code, 1, "{cold:?}");
    assert_eq!(cold.findings().len(), 501, "{}", cold.stderr);
    let warm = bounded(p.path(), &args);
    assert_eq!(warm.code, 1, "{warm:?}");
    assert_eq!(warm.stdout, cold.stdout);
    assert!(
        support::files_under(&p.path().join(".cache"))
            .iter()
            .any(|e| e.components().any(|c| c.as_os_str() == "s")),
        "the cold run recorded the files' stamps"
    );
}
