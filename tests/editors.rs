//! The editor set-up in docs/editors.md works as written: Neovim 0.7 (Debian 12's), with the
//! plugin-free `vim.lsp.start_client` snippet from the page as its whole `init.lua`, opens a
//! server's file and gets mcp-lint's finding as a diagnostic. Needs `nvim` on PATH, so it is
//! `#[ignore]`d; `.ci/run` runs it with `--ignored`.

mod common;

use std::path::Path;
use std::process::Command;

use common::{capture, quiet_env, write, MCP001_TOOL};

/// The ```lua block that follows the marker line naming this test.
fn documented_snippet() -> String {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md");
    let text = std::fs::read_to_string(&page).expect("docs/editors.md");
    let marker = "<!-- ci: tests/editors.rs";
    let at = text
        .find(marker)
        .expect("the page marks the snippet this test runs");
    let rest = &text[at..];
    let start = rest.find("```lua\n").expect("a lua block after the marker") + "```lua\n".len();
    let end = rest[start..].find("\n```").expect("the block is closed");
    rest[start..start + end].to_string()
}

#[test]
#[ignore = "needs Neovim 0.7 or later (nvim on PATH); run with --ignored"]
fn neovim_without_plugins_shows_the_finding() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    write(
        dir,
        "Cargo.toml",
        "[package]\nname = \"srv\"\nversion = \"0.1.0\"\n[dependencies]\nrmcp = \"0.8\"\n",
    );
    write(dir, "src/lib.rs", MCP001_TOOL);
    let out = dir.join("diagnostics.txt");
    // After the documented set-up: wait for the diagnostics, write them out, quit.
    let init = format!(
        "{}\n\nvim.api.nvim_create_autocmd('VimEnter', {{ callback = function()\n  \
         vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)\n  \
         local lines = {{}}\n  \
         for _, d in ipairs(vim.diagnostic.get(0)) do\n    \
         table.insert(lines, string.format('%d:%s:%s', d.lnum + 1, d.source or '', d.message))\n  \
         end\n  \
         vim.fn.writefile(lines, '{}')\n  \
         vim.cmd('qall!')\nend }})\n",
        documented_snippet(),
        out.display()
    );
    write(dir, "init.lua", &init);
    let mut cmd = Command::new("nvim");
    cmd.args([
        "--headless",
        "-n",
        "-i",
        "NONE",
        "-u",
        "init.lua",
        "src/lib.rs",
    ]);
    quiet_env(&mut cmd, dir);
    let run = capture(cmd.env("XDG_STATE_HOME", dir).env("XDG_DATA_HOME", dir));
    assert_eq!(run.code, 0, "{run:?}");
    let diagnostics = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(
        diagnostics.starts_with("9:mcp-lint:tool `f` reports a tool failure as JSON-RPC error"),
        "Neovim showed: {diagnostics:?}\n{run:?}"
    );
}
