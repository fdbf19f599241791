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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(has(&run, "MCP900", "src/huge.rs"), "{run:?}");
    assert!(has(&run, "MCP001", "src/lib.rs"), "{run:?}");
    assert!(run.stdout.contains("larger than 8 MiB"), "{run:?}");
    // In a package that never mentions an MCP SDK: read and skipped.
    let q = project(&[("Cargo.toml", "[package]\nname = \"big\"\n")]);
    write(q.path(), "src/lib.rs", &huge);
    let run = mcp_lint(q.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["summary"]["files"], 1);
}

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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
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
    let human = mcp_lint(p.path(), &["check", "--color", "never"]);
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
    let run = mcp_lint(root, &["check", "--format", "json"]);
    assert_eq!(run.code, 2, "{run:?}");
    for expected in [
        "error: symlink loop: src/again points to its ancestor src; not followed",
        "error: symlink loop: src/up points to its ancestor .; not followed",
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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
    only_the_server_finding(&run);
    // lib.rs and dir.rs/inner.rs; the FIFO is neither a file nor a directory.
    assert_eq!(run.json()["summary"]["files"], 2, "{run:?}");
    if !made {
        eprintln!("mkfifo unavailable: the FIFO case was not exercised");
    }
}

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
    let run = mcp_lint(p.path(), &["check", "--format", "json"]);
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
    let analyze = |input: &CrateInput, options: &Options| -> Vec<FileReport> {
        if input.root.as_ref().is_some_and(|r| r.ends_with("bomb")) {
            panic!("injected failure");
        }
        lints::analyze(input, options)
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

    std::fs::remove_file(dir.join("src/zero.rs")).expect("rm");
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

    write(
        p.path(),
        "mcp-lint.toml",
        format!("x = \"{}\n", "a".repeat(4 << 20)),
    );
    let run = support::bounded::run(p.path(), &["check"], b"");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("could not parse"), "{run:?}");
    assert!(
        run.stderr.len() < 4096,
        "{} bytes of stderr",
        run.stderr.len()
    );
}
