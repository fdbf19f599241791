//! The layout of fix fragments (`lints::layout`) measured against rustfmt: snippets of every
//! SDK, with messages of many lengths and shapes, laid out at many indents as a `return` operand
//! and as a match arm's body, must be what `rustfmt --edition 2021` leaves alone, every one of
//! them (the only cases set apart are those where rustfmt itself keeps a macro it cannot lay
//! out, so that no layout is stable). Needs a rustfmt binary (every rustup toolchain has it).

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
