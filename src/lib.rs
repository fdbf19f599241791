//! mcp-lint's front end: the command line and servers (`commands/`, `lsp/`, `mcp/`), the one
//! pipeline they share (`session`), the project on disk (`workspace/`) and the reporters. No
//! analysis here.

pub mod baseline;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod fix;
pub mod jsonrpc;
pub mod lsp;
pub mod mcp;
pub mod message_format;
pub mod read;
pub mod report;
pub mod rules;
pub mod session;
pub mod workspace;

#[cfg(test)]
mod test_support;

use std::ffi::OsString;
use std::io::Write;

use cli::Command;
use commands::output::{EXIT_CLEAN, EXIT_FAILURE};

/// Run mcp-lint with `args` (program name first) and return the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match cli::parse(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    // Before anything locks stdout: in the servers it carries their protocol and nothing else.
    match cli.command {
        Command::Server => return lsp::run(),
        Command::Mcp => return mcp::serve(),
        _ => {}
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let code = match &cli.command {
        Command::Check(args) => in_cwd(&mut err, |cwd, err| {
            commands::check::check(args, cwd, &mut out, err)
        }),
        Command::Baseline(args) => {
            in_cwd(&mut err, |cwd, err| commands::baseline::run(args, cwd, err))
        }
        Command::Rules(args) => finish(rules::write_rules(&mut out, args.format), &mut err),
        Command::Explain(args) => match rules::explain(&mut out, &mut err, &args.lint) {
            Ok(code) => code,
            Err(e) => finish(Err(e), &mut err),
        },
        Command::Server | Command::Mcp => unreachable!("handled above"),
    };
    let _ = out.flush();
    code
}

/// Run `f` in the current directory, or fail (exit 2) when it cannot be determined.
fn in_cwd(err: &mut dyn Write, f: impl FnOnce(&std::path::Path, &mut dyn Write) -> i32) -> i32 {
    match std::env::current_dir() {
        Ok(cwd) => f(&cwd, err),
        Err(e) => {
            let _ = writeln!(err, "error: cannot determine the current directory: {e}");
            EXIT_FAILURE
        }
    }
}

/// Exit code for a command whose only failure is writing its output.
fn finish(result: std::io::Result<()>, err: &mut dyn Write) -> i32 {
    match result {
        Ok(()) => EXIT_CLEAN,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_CLEAN,
        Err(e) => {
            let _ = writeln!(err, "error: could not write the output: {e}");
            EXIT_FAILURE
        }
    }
}
