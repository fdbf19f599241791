fn main() {
    std::process::exit(mcp_lint::cargo::run(std::env::args_os()));
}
