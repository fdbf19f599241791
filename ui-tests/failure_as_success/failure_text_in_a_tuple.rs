//@ rmcp = "2.2"
//@ dep: anyhow = "1"
// Failure text put in one element of a tuple that a `let` destructures (`let (content, prefix) =
// match .. { Err(_) => ("Failed to parse HTML".to_string(), ..) }`) is followed to the answer
// when that element is returned whole; embedded by `format!` in other text, it is part of
// another answer. Names that tuples pass on through many `let`s are followed once each (a chain
// of 32 swaps would take 2^32 steps otherwise).
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub url: String,
}

fn extract(page: &str) -> Result<String, String> {
    if page.trim().is_empty() {
        return Err("the page has no text".into());
    }
    Ok(page.to_string())
}

async fn inner(url: &str) -> anyhow::Result<String> {
    let page = std::fs::read_to_string(url)?;
    let (content, prefix) = match extract(&page) {
        Ok(doc) => (doc, String::new()),
        Err(_) => ("Failed to parse HTML".to_string(), String::new()), //~ failure_as_success
    };
    let _ = prefix;
    Ok(content)
}

async fn with_note(url: &str) -> anyhow::Result<String> {
    let page = std::fs::read_to_string(url)?;
    let (content, note) = match extract(&page) {
        Ok(doc) => (doc, String::new()),
        Err(_) => (page.clone(), "Failed to parse HTML; the raw page follows. ".to_string()),
    };
    Ok(format!("{note}{content}"))
}

/// Names that tuples pass back and forth: each is followed once (the cost stays linear).
async fn shuffled(url: &str, flip: bool) -> anyhow::Result<String> {
    let (a0, b0) = (url.to_string(), String::new());
    let (a1, b1) = if flip { (b0, a0) } else { (a0, b0) };
    let (a2, b2) = if flip { (b1, a1) } else { (a1, b1) };
    let (a3, b3) = if flip { (b2, a2) } else { (a2, b2) };
    let (a4, b4) = if flip { (b3, a3) } else { (a3, b3) };
    let (a5, b5) = if flip { (b4, a4) } else { (a4, b4) };
    let (a6, b6) = if flip { (b5, a5) } else { (a5, b5) };
    let (a7, b7) = if flip { (b6, a6) } else { (a6, b6) };
    let (a8, b8) = if flip { (b7, a7) } else { (a7, b7) };
    let (a9, b9) = if flip { (b8, a8) } else { (a8, b8) };
    let (a10, b10) = if flip { (b9, a9) } else { (a9, b9) };
    let (a11, b11) = if flip { (b10, a10) } else { (a10, b10) };
    let (a12, b12) = if flip { (b11, a11) } else { (a11, b11) };
    let (a13, b13) = if flip { (b12, a12) } else { (a12, b12) };
    let (a14, b14) = if flip { (b13, a13) } else { (a13, b13) };
    let (a15, b15) = if flip { (b14, a14) } else { (a14, b14) };
    let (a16, b16) = if flip { (b15, a15) } else { (a15, b15) };
    let (a17, b17) = if flip { (b16, a16) } else { (a16, b16) };
    let (a18, b18) = if flip { (b17, a17) } else { (a17, b17) };
    let (a19, b19) = if flip { (b18, a18) } else { (a18, b18) };
    let (a20, b20) = if flip { (b19, a19) } else { (a19, b19) };
    let (a21, b21) = if flip { (b20, a20) } else { (a20, b20) };
    let (a22, b22) = if flip { (b21, a21) } else { (a21, b21) };
    let (a23, b23) = if flip { (b22, a22) } else { (a22, b22) };
    let (a24, b24) = if flip { (b23, a23) } else { (a23, b23) };
    let (a25, b25) = if flip { (b24, a24) } else { (a24, b24) };
    let (a26, b26) = if flip { (b25, a25) } else { (a25, b25) };
    let (a27, b27) = if flip { (b26, a26) } else { (a26, b26) };
    let (a28, b28) = if flip { (b27, a27) } else { (a27, b27) };
    let (a29, b29) = if flip { (b28, a28) } else { (a28, b28) };
    let (a30, b30) = if flip { (b29, a29) } else { (a29, b29) };
    let (a31, b31) = if flip { (b30, a30) } else { (a30, b30) };
    let (a32, b32) = if flip { (b31, a31) } else { (a31, b31) };
    let _ = b32;
    Ok(a32)
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "fetch")]
    async fn fetch(&self, Parameters(p): Parameters<P>) -> Result<String, String> {
        inner(&p.url).await.map_err(|e| format!("fetch {} failed: {e}", p.url))
    }

    #[tool(description = "shuffle")]
    async fn shuffle(&self, Parameters(p): Parameters<P>) -> Result<String, String> {
        shuffled(&p.url, p.url.len() % 2 == 0).await.map_err(|e| format!("shuffle failed: {e}"))
    }

    #[tool(description = "fetch raw")]
    async fn fetch_raw(&self, Parameters(p): Parameters<P>) -> Result<String, String> {
        with_note(&p.url).await.map_err(|e| format!("fetch {} failed: {e}", p.url))
    }
}
