//! mcp-lint's front end: CLI, discovery, config, driver and reporters. No analysis here.

pub mod cache;
pub mod cli;
pub mod config;
pub mod discover;
pub mod driver;
pub mod engine;
pub mod manifest;
pub mod prefilter;
pub mod report;
pub mod rules;

#[cfg(test)]
mod test_support;

use std::ffi::OsString;
use std::io::Write;

use cli::Command;

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
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let code = match &cli.command {
        Command::Check(args) => match std::env::current_dir() {
            Ok(cwd) => driver::check(args, &cwd, &mut out, &mut err),
            Err(e) => {
                let _ = writeln!(err, "error: cannot determine the current directory: {e}");
                driver::EXIT_FAILURE
            }
        },
        Command::Rules(args) => finish(rules::write_rules(&mut out, args.format), &mut err),
        Command::Explain(args) => match rules::explain(&mut out, &mut err, &args.lint) {
            Ok(code) => code,
            Err(e) => finish(Err(e), &mut err),
        },
    };
    let _ = out.flush();
    code
}

/// Exit code for a command whose only failure is writing its output.
fn finish(result: std::io::Result<()>, err: &mut dyn Write) -> i32 {
    match result {
        Ok(()) => driver::EXIT_CLEAN,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => driver::EXIT_CLEAN,
        Err(e) => {
            let _ = writeln!(err, "error: could not write the output: {e}");
            driver::EXIT_FAILURE
        }
    }
}
