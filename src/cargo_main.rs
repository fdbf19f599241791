// syn builds and drops many small allocations; mimalloc does that markedly faster than the
// system allocator on the worker threads.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(mcp_lint::commands::cargo::run(std::env::args_os()));
}
