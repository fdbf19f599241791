use std::process::ExitCode;

fn main() -> ExitCode {
    imessage_mcp::cli::run()
}
