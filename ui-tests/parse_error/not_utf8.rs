// mcp-lint reads bytes and decodes them itself: a file that is not UTF-8 is a parse_error at 1:1 //~ parse_error
// (the linter never panics on it; the invalid byte is in the function name below).
fn café() {}
