//@ rmcp = "2.2"
//@ dep: anyhow = "1"
// A server whose struct, `#[tool_router]` impl and `#[tool_handler]` are item statements of a fn
// body (`pub fn serve() { struct S; #[tool_router] impl S { .. } }`) is a server: the items a fn's
// block declares have a scope of their own, inside the fn's module (its `use`s, its types), and
// `crate::`, `self::` and `super::` paths in it mean what they mean in that module. Another fn's
// block declaring a type of the same name is another scope.
mod convert {
    pub fn run(input: &str) -> anyhow::Result<String> {
        if input.is_empty() {
            anyhow::bail!("the input is empty");
        }
        Ok(input.to_uppercase())
    }
}

fn check(input: &str) -> Result<String, String> {
    if input.len() > 64 {
        return Err(format!("input is {} bytes, at most 64 allowed", input.len()));
    }
    Ok(input.to_string())
}

pub fn serve() -> anyhow::Result<()> {
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::{schemars, tool, tool_handler, tool_router, ServerHandler};

    #[derive(Clone)]
    struct S;

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    struct P {
        input: String,
    }

    #[tool_router]
    impl S {
        #[tool(description = "convert")]
        fn convert(&self, Parameters(p): Parameters<P>) -> String {
            match crate::convert::run(&p.input) {
                Ok(out) => format!("ok: {out}"),
                Err(e) => format!("error: {e:#}"), //~ failure_as_success
            }
        }

        #[tool(description = "check")]
        fn check(&self, Parameters(p): Parameters<P>) -> String {
            match self::check(&p.input) {
                Ok(v) => v,
                Err(e) => format!("error: {e}"), //~ failure_as_success
            }
        }
    }

    #[tool_handler]
    impl ServerHandler for S {}
    Ok(())
}

/// Not a server: a type of the same name in another fn's block, with no tools.
pub fn report(input: &str) -> String {
    struct S;
    impl S {
        fn convert(&self, input: &str) -> String {
            match crate::convert::run(input) {
                Ok(out) => out,
                Err(e) => format!("error: {e:#}"),
            }
        }
    }
    S.convert(input)
}
