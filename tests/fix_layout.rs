//! The layout of fix fragments (`lints::layout`) measured against rustfmt: snippets of every
//! SDK, with messages of many lengths and shapes, laid out at many indents as a `return` operand
//! and as a match arm's body, must be what `rustfmt --edition 2021` leaves alone, every one of
//! them (the only cases set apart are those where rustfmt itself keeps a macro it cannot lay
//! out, so that no layout is stable). And whole fixes in method chains: a pmcp crate of tools
//! whose chains hold a closure the fixes lengthen (MCP001's `Error::tool_rejected(.., None)`,
//! MCP003's text), made rustfmt-clean by rustfmt, fixed with `--fix --unsafe-fixes`, must be
//! what rustfmt leaves alone, tool for tool: one- and two-call chains (the closure's call last
//! or first, after a root or an awaited one) in `let`s, statements, tails and `return`s, and
//! roots ending at every column from 94 to 100; rmcp's the same, its `?` made a `match`. Needs
//! a rustfmt binary (every rustup toolchain has it).

mod common;

use lints::layout::ArmBody;

const SNIPPETS: &[&str] = &[
    "Ok(CallToolResult::error(vec![Content::text(MSG)]))",
    "Ok(CallToolResult::error(vec![ContentBlock::text(MSG)]).into())",
    "Err(Error::tool_rejected(MSG, None))",
    "Ok(ToolResult::error(MSG))",
    "Ok(CallToolResult::from(CallToolError::from_message(MSG)).into())",
    "Ok(ToolResult { content: vec![ToolContent::text(MSG)], is_error: Some(true) })",
    "Err(McpError::invalid_params(format!(\"Unknown tool: {other}\"), None))",
    "Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(MSG, true))",
    "Ok(CallToolResult { content: vec![TextContent::new(MSG).into()], is_error: Some(true), meta: Default::default() })",
    "Err(Error::tool(MSG))",
    "Ok(CallToolResult::error(MSG))",
];

fn messages() -> Vec<String> {
    let mut out = Vec::new();
    for n in [1, 8, 20, 30, 40, 50, 60, 70, 90] {
        let words: String = "could not read the file "
            .repeat(4)
            .chars()
            .take(n)
            .collect();
        let words = words.trim_end();
        out.push(format!("\"{words}\""));
        out.push(format!("format!(\"{words}: {{e}}\")"));
        out.push(format!("format!(\"{words} {{}}: {{e}}\", args.path)"));
        out.push(format!(
            "format!(\"{words} {{}}: {{}}\", args.path.display(), e)"
        ));
    }
    out.push("e.to_string()".to_string());
    out
}

#[test]
fn fragments_are_laid_out_as_rustfmt_does() {
    assert!(
        common::has_rustfmt(),
        "no rustfmt to measure the layout against: `rustup component add rustfmt`"
    );
    let mut file = String::new();
    let mut cases = 0;
    for snippet in SNIPPETS {
        for msg in messages() {
            let code = snippet.replace("MSG", &msg);
            for depth in [1, 2, 3, 5, 8, 12] {
                // As a `return` operand, and as a match arm (where most fixes write).
                for arm in [false, true] {
                    let indent = depth * 4;
                    let pad = " ".repeat(indent);
                    let statement = if arm {
                        let col = indent + 4 + "Err(e) => ".len();
                        let arm = match lints::layout::arm_body_at(&code, indent + 4, col, 1) {
                            ArmBody::SameLine(laid) => format!("{laid},"),
                            ArmBody::Block(block) => block,
                        };
                        format!("{pad}match x {{\n{pad}    Err(e) => {arm}\n{pad}    _ => y,\n{pad}}}\n")
                    } else {
                        let col = indent + "return ".len();
                        let laid = lints::layout::return_operand_at(&code, indent, col, 1);
                        format!("{pad}return {laid};\n")
                    };
                    file.push_str(&format!("fn f{cases}() {{\n"));
                    for d in 1..depth {
                        file.push_str(&format!("{}if x {{\n", " ".repeat(d * 4)));
                    }
                    file.push_str(&statement);
                    for d in (1..depth).rev() {
                        file.push_str(&format!("{}}}\n", " ".repeat(d * 4)));
                    }
                    file.push_str("}\n\n");
                    cases += 1;
                }
            }
        }
    }
    let formatted = common::rustfmt(&file).expect("rustfmt");
    let differ = diff_fns(&file, &formatted);
    // Where rustfmt cannot lay a macro out within the limit it keeps the macro's text as it
    // was, indentation included, whatever it moved around it (a line after an opening
    // delimiter no deeper than the opening line): no layout is stable there, ours included.
    let (gave_up, differ): (Vec<String>, Vec<String>) =
        differ.into_iter().partition(|d| kept_a_macro(d));
    eprintln!(
        "{} of {cases} layouts are rustfmt's; {} where rustfmt keeps a macro it cannot lay out",
        cases - differ.len() - gave_up.len(),
        gave_up.len()
    );
    let shown: Vec<&str> = differ.iter().take(12).map(String::as_str).collect();
    assert!(
        differ.is_empty(),
        "{} layouts differ from rustfmt's:\n{}",
        differ.len(),
        shown.join("\n")
    );
}

/// Whether rustfmt's side of a difference keeps a macro's text unformatted: a line that opens a
/// delimiter followed by one no deeper.
fn kept_a_macro(difference: &str) -> bool {
    let theirs = difference
        .split("\n--- rustfmt\n")
        .nth(1)
        .unwrap_or_default();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let lines: Vec<&str> = theirs.lines().collect();
    lines
        .windows(2)
        .any(|w| w[0].trim_end().ends_with(['(', '[', '{']) && indent(w[1]) <= indent(w[0]))
}

/// The fns (split where one starts) whose text rustfmt changed: ours, then rustfmt's.
pub fn diff_fns(ours: &str, theirs: &str) -> Vec<String> {
    let a: Vec<&str> = ours.trim().split("\nfn ").collect();
    let b: Vec<&str> = theirs.trim().split("\nfn ").collect();
    assert_eq!(a.len(), b.len(), "rustfmt changed the number of items");
    a.iter()
        .zip(&b)
        .filter(|(x, y)| x.trim() != y.trim())
        .map(|(x, y)| format!("--- ours\n{x}\n--- rustfmt\n{y}"))
        .collect()
}

/// Method-chain shapes a fix lengthens a closure body in (`CLOSURE` is `|e| <site>`), as
/// statements of a pmcp tool's body: a statement, `let`s (one call, two calls, a call mid-chain,
/// a long binding), a `return`, a match arm and the tail.
const PMCP_CHAINS: &[&str] = &[
    "std::fs::write(PATH, \"x\").map_err(CLOSURE)?;\n        Ok(Value::Null)",
    "let v = std::fs::metadata(PATH).map_err(CLOSURE)?;\n        Ok(Value::from(v.len()))",
    "let v = std::fs::metadata(PATH).map(|m| m.len()).map_err(CLOSURE)?;\n        Ok(Value::from(v))",
    "let v = std::fs::read_to_string(PATH).map_err(CLOSURE)?.to_lowercase();\n        Ok(Value::from(v))",
    "let the_text_of_the_file_that_was_read = std::fs::read_to_string(PATH).map_err(CLOSURE)?;\n        Ok(Value::from(the_text_of_the_file_that_was_read))",
    "if PATH.is_empty() {\n            return std::fs::read_to_string(PATH).map(Value::from).map_err(CLOSURE);\n        }\n        Ok(Value::Null)",
    "match args.get(\"x\") {\n            Some(_) => std::fs::read_to_string(PATH).map(Value::from).map_err(CLOSURE),\n            None => Ok(Value::Null),\n        }",
    "std::fs::read_to_string(PATH).map(Value::from).map_err(CLOSURE)",
    // More binding lengths, for where rustfmt puts a `let`'s right-hand side.
    "let the_text_of_the_note = std::fs::read_to_string(PATH).map_err(CLOSURE)?;\n        Ok(Value::from(the_text_of_the_note))",
    "let the_text_of_the_file_that_was_read_from_the_disk = std::fs::read_to_string(PATH).map_err(CLOSURE)?;\n        Ok(Value::from(the_text_of_the_file_that_was_read_from_the_disk))",
    // Two calls, the closure's first or last, after a sync or an awaited root; in a `let`, as
    // the tail's `Ok(..)` and in a `return`.
    "let v = std::fs::read_to_string(PATH).map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(Value::from(v))",
    "let v = std::fs::read_to_string(PATH).map_err(CLOSURE).map(|t| t.len())?;\n        Ok(Value::from(v))",
    "let v = tokio::fs::read_to_string(PATH).await.map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(Value::from(v))",
    "let v = tokio::fs::read_to_string(PATH).await.map_err(CLOSURE).map(|t| t.len())?;\n        Ok(Value::from(v))",
    "std::fs::read_to_string(PATH).map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(Value::Null)",
    "tokio::fs::read_to_string(PATH).await.map_err(CLOSURE).map(|t| t.len())?;\n        Ok(Value::Null)",
    "Ok(Value::from(std::fs::read_to_string(PATH).map(|t| t.len()).map_err(CLOSURE)?))",
    "Ok(Value::from(tokio::fs::read_to_string(PATH).await.map_err(CLOSURE).map(|t| t.len())?))",
    "if PATH.is_empty() {\n            return Ok(Value::from(std::fs::read_to_string(PATH).map_err(CLOSURE).map(|t| t.len())?));\n        }\n        Ok(Value::Null)",
    "if PATH.is_empty() {\n            return Ok(Value::from(tokio::fs::read_to_string(PATH).await.map(|t| t.len()).map_err(CLOSURE)?));\n        }\n        Ok(Value::Null)",
    // Roots ending at columns 94..=100 (`@` marks the root's end; the path's name is as long
    // as it takes).
    "let v = std::fs::read_to_string(PATH)@.map_err(CLOSURE)?;\n        Ok(Value::from(v))",
    "let v = std::fs::read_to_string(PATH)@.map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(Value::from(v))",
    "let v = std::fs::read_to_string(PATH)@.map_err(CLOSURE).map(|t| t.len())?;\n        Ok(Value::from(v))",
    "let v = tokio::fs::read_to_string(PATH).await@.map_err(CLOSURE)?;\n        Ok(Value::from(v))",
];

/// The same for an rmcp tool, whose MCP001 fix makes the `?` a `match` and whose MCP002 and
/// MCP003 fixes write the error's text into the closure of `unwrap_or_else`.
const RMCP_CHAINS: &[&str] = &[
    "std::fs::write(PATH, \"x\").map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![]))",
    "let v = std::fs::metadata(PATH).map(|m| m.len()).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v.to_string())]))",
    "let the_text_of_the_file_that_was_read = std::fs::read_to_string(PATH).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(the_text_of_the_file_that_was_read)]))",
    "Ok(std::fs::read_to_string(PATH).map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![])))",
    "let result = std::fs::read_to_string(PATH).map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![Content::text(\"failed\")]));\n        Ok(result)",
    // Two calls (see `PMCP_CHAINS`): the `?` made a `match` in a `let` (MCP001 has no fix for
    // a `map_err` mid-chain or a `?` inside the tail's `Ok(..)`), and MCP002's text written
    // into `unwrap_or_else` as the tail, in a `let` and in a `return`, after an awaited root.
    "let v = std::fs::read_to_string(PATH).map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v.to_string())]))",
    "let v = tokio::fs::read_to_string(PATH).await.map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v.to_string())]))",
    "tokio::fs::read_to_string(PATH).await.map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![]))",
    "Ok(tokio::fs::read_to_string(PATH).await.map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![])))",
    "let result = tokio::fs::read_to_string(PATH).await.map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![]));\n        Ok(result)",
    "if PATH.is_empty() {\n            return Ok(std::fs::read_to_string(PATH).map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![])));\n        }\n        Ok(CallToolResult::success(vec![]))",
    "if PATH.is_empty() {\n            return Ok(tokio::fs::read_to_string(PATH).await.map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![])));\n        }\n        Ok(CallToolResult::success(vec![]))",
    // Roots ending at columns 94..=100.
    "let v = std::fs::read_to_string(PATH)@.map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v)]))",
    "let v = std::fs::read_to_string(PATH)@.map(|t| t.len()).map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v.to_string())]))",
    "let v = tokio::fs::read_to_string(PATH).await@.map_err(CLOSURE)?;\n        Ok(CallToolResult::success(vec![Content::text(v)]))",
    "let result = std::fs::read_to_string(PATH)@.map(|t| CallToolResult::success(vec![Content::text(t)])).unwrap_or_else(|e| CallToolResult::error(vec![]));\n        Ok(result)",
];

/// Messages of several lengths, as `format!("<words>: {e}")`.
fn words(n: usize) -> String {
    let words: String = "could not read the file "
        .repeat(2)
        .chars()
        .take(n)
        .collect();
    words.trim_end().to_string()
}

/// Sites whose fix lengthens them: pmcp's `Error::internal(..)` made `Error::tool_rejected(..,
/// None)` (MCP001), and vague or empty text made what failed and the error (MCP003, MCP002).
fn pmcp_sites() -> Vec<String> {
    let mut sites = vec!["|e| Error::tool_rejected(\"failed\", None)".to_string()];
    for n in [1, 12, 24, 36, 48] {
        sites.push(format!(
            "|e| Error::internal(format!(\"{}: {{e}}\"))",
            words(n)
        ));
    }
    // MCP002: the empty text filled with what failed and the error.
    sites.push("|e| Error::tool_rejected(\"\", None)".to_string());
    // Point-free (`.map_err(Error::internal)`): the fix writes the closure.
    sites.push("Error::internal".to_string());
    sites
}

/// rmcp's `McpError::internal_error(..)` (MCP001, the `?` becomes a `match`).
fn rmcp_sites() -> Vec<String> {
    [1, 24, 48]
        .iter()
        .map(|n| {
            format!(
                "|e| McpError::internal_error(format!(\"{}: {{e}}\"), None)",
                words(*n)
            )
        })
        .collect()
}

/// The names bound to the path and the nesting depths a shape is tried with: six name lengths
/// at depths 0, 1 and 3; for a shape with `@` after its root, names as long as it takes for the
/// root to end at each column from 94 to 100 on the `let` line (at 8 + 4 × depth columns).
fn paths(chain: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    // By hand: other depths (`FIX_LAYOUT_DEPTHS=2,4`).
    let depths: Vec<usize> = match std::env::var("FIX_LAYOUT_DEPTHS") {
        Ok(d) => d
            .split(',')
            .map(|d| d.parse().expect("FIX_LAYOUT_DEPTHS"))
            .collect(),
        Err(_) => vec![0, 1, 3],
    };
    for depth in depths {
        match chain.find('@') {
            None => {
                // By hand, a wider sweep: every name length up to `FIX_LAYOUT_WIDE`.
                if let Ok(n) = std::env::var("FIX_LAYOUT_WIDE") {
                    let n: usize = n.parse().expect("FIX_LAYOUT_WIDE: a number");
                    for len in 1..=n {
                        out.push((format!("p{}", "x".repeat(len - 1)), depth));
                    }
                    continue;
                }
                for path in ["p", "path_of_the_note", "the_path_of_the_note_to_read_here"] {
                    out.push((path.to_string(), depth));
                }
                // Names long enough to bring a chain's root near the end of its line, where
                // the `?`s and the `;` decide (found by a sweep of every length up to 60).
                for len in [45, 51, 55] {
                    out.push((format!("p{}", "x".repeat(len - 4 * depth - 1)), depth));
                }
            }
            Some(at) => {
                let before = &chain[..at];
                let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
                let fixed = 8 + 4 * depth + line.len() - "PATH".len();
                for column in 94..=100 {
                    // `p_` and as many `x`s as the column takes.
                    let path = format!("p_{}", "x".repeat(column - fixed - 2));
                    out.push((path, depth));
                }
            }
        }
    }
    out
}

/// One SDK's crate of generated tools.
struct ChainCrate {
    deps: &'static [(&'static str, &'static str)],
    header: &'static str,
    /// A tool: `{n}` its number, `{path}` the name bound to the path, `{body}` its statements.
    tool: &'static str,
    chains: &'static [&'static str],
    sites: Vec<String>,
    /// Cases whose layout is not rustfmt's yet (see each list).
    known: &'static [&'static str],
}

/// Every shape, site, name length and nesting depth in one crate, made rustfmt-clean by
/// rustfmt, then fixed (`--fix --unsafe-fixes`): the fixed file must be what rustfmt leaves
/// alone, tool for tool.
fn measure_chains(krate: &ChainCrate) {
    assert!(
        common::has_rustfmt(),
        "no rustfmt to measure the layout against: `rustup component add rustfmt`"
    );
    let mut file = krate.header.to_string();
    let mut cases = 0;
    for chain in krate.chains {
        // By hand: only the shapes holding one of `FIX_LAYOUT_ONLY` (`|` between them; a wide sweep of them all would
        // pass the parser's file size limit).
        if let Ok(only) = std::env::var("FIX_LAYOUT_ONLY") {
            if !only.split('|').any(|o| chain.contains(o)) || chain.contains('@') {
                continue;
            }
        }
        // A shape without `CLOSURE` holds its own site: once per name length and depth.
        let sites = if chain.contains("CLOSURE") {
            &krate.sites[..]
        } else {
            &krate.sites[..1]
        };
        for site in sites {
            for (path, depth) in paths(chain) {
                {
                    let open: String = (0..depth).map(|_| "if true {\n").collect();
                    let close: String = (0..depth).map(|_| "}\n").collect();
                    let body = chain
                        .replace('@', "")
                        .replace("CLOSURE", site)
                        .replace("PATH", &path);
                    let body = format!("{open}{body}\n{close}");
                    file.push_str(
                        &krate
                            .tool
                            .replace("{n}", &cases.to_string())
                            .replace("{path}", &path)
                            .replace("{body}", &body),
                    );
                    cases += 1;
                }
            }
        }
    }
    let clean = common::rustfmt(&file).expect("rustfmt");
    let input = lints::CrateInput {
        root: None,
        manifest: Some(lints::Manifest {
            package_name: Some("chains".to_string()),
            package_version: None,
            published: false,
            dependencies: krate
                .deps
                .iter()
                .map(|(name, version)| lints::Dependency {
                    name: name.to_string(),
                    version: Some(version.to_string()),
                    rename: None,
                    path: None,
                })
                .collect(),
            locked: None,
            targets: Default::default(),
        }),
        files: vec![lints::SourceInput {
            path: "src/lib.rs".into(),
            contents: clean.clone().into_bytes(),
            role: lints::FileRole::Source,
            report: true,
            named: true,
            package_path: None,
        }],
    };
    let result = mcp_lint::fix::fix_crate(&input, &lints::Options::default(), true);
    let fixed = &result
        .changed
        .first()
        .expect("the fixes changed the file")
        .1;
    // By hand: the clean, fixed and reformatted crates written to `FIX_LAYOUT_DUMP`.
    if let Ok(dir) = std::env::var("FIX_LAYOUT_DUMP") {
        let name = krate.deps[0].0;
        std::fs::write(format!("{dir}/{name}.clean.rs"), &clean).unwrap();
        std::fs::write(format!("{dir}/{name}.fixed.rs"), fixed).unwrap();
        std::fs::write(
            format!("{dir}/{name}.rustfmt.rs"),
            common::rustfmt(fixed).unwrap(),
        )
        .unwrap();
    }
    // Every case has a fix that lengthens its closure.
    assert!(
        result.applied.len() >= cases,
        "{} fixes applied for {cases} cases",
        result.applied.len()
    );
    let formatted = common::rustfmt(fixed).expect("rustfmt");
    let split =
        |text: &str| -> Vec<String> { text.split("\npub struct C").map(str::to_string).collect() };
    let (ours, theirs) = (split(fixed), split(&formatted));
    assert_eq!(
        ours.len(),
        theirs.len(),
        "rustfmt changed the number of items"
    );
    let differ: Vec<String> = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| a.trim() != b.trim())
        .map(|(a, b)| format!("--- ours\n{a}\n--- rustfmt\n{b}"))
        .collect();
    // The cases by number (`C<n>`), to rerun one by hand.
    let numbers: Vec<&str> = differ
        .iter()
        .filter_map(|d| d.strip_prefix("--- ours\n")?.split(';').next())
        .collect();
    eprintln!(
        "{} of {cases} fixed chains are rustfmt's (differ: C{})",
        cases - differ.len(),
        numbers.join(", C")
    );
    let new: Vec<(&str, &String)> = numbers
        .iter()
        .zip(&differ)
        .filter(|(n, _)| !krate.known.contains(n))
        .map(|(n, d)| (*n, d))
        .collect();
    let shown: Vec<&str> = new.iter().take(6).map(|(_, d)| d.as_str()).collect();
    assert!(
        new.is_empty(),
        "{} fixed chains differ from rustfmt's (C{}; known: C{}):\n{}",
        differ.len(),
        numbers.join(", C"),
        krate.known.join(", C"),
        shown.join("\n")
    );
}

#[test]
fn pmcp_fixes_in_method_chains_are_laid_out_as_rustfmt_does() {
    measure_chains(&ChainCrate {
        deps: &[("pmcp", "2.23"), ("serde_json", "1")],
        header: "use pmcp::{async_trait, Error, RequestHandlerExtra, ToolHandler};\nuse serde_json::Value;\n",
        tool: "\npub struct C{n};\n\n#[async_trait]\nimpl ToolHandler for C{n} {\n    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {\n        let {path} = args.get(\"path\").and_then(Value::as_str).unwrap_or_default();\n{body}    }\n}\n",
        chains: PMCP_CHAINS,
        sites: pmcp_sites(),
        known: KNOWN_CHAIN_GAPS,
    });
}

#[test]
fn rmcp_fixes_in_method_chains_are_laid_out_as_rustfmt_does() {
    measure_chains(&ChainCrate {
        deps: &[("rmcp", "1.8"), ("serde", "1")],
        header: "use rmcp::{\n    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,\n    ErrorData as McpError,\n};\nuse serde::Deserialize;\n\n#[derive(Debug, Deserialize, schemars::JsonSchema)]\npub struct Args {\n    pub path: String,\n}\n",
        tool: "\npub struct C{n};\n\n#[tool_router]\nimpl C{n} {\n    #[tool(description = \"x\")]\n    async fn t(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {\n        let {path} = args.path.as_str();\n{body}    }\n}\n",
        chains: RMCP_CHAINS,
        sites: rmcp_sites(),
        known: &[],
    });
}

/// Cases whose layout is not rustfmt's yet: none (the column-97 shape is `narrow_last_call` in
/// `lints/src/fix.rs`; two-call chains after a root rustfmt broke are `chain_closure_block`; the
/// `match` of rmcp's fix is `scrutinee` and `chain_at`).
const KNOWN_CHAIN_GAPS: &[&str] = &[];
