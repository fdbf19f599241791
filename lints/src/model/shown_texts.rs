//! Messages a tool's answer shows as they were written in a crate fn: the answer's text is the
//! Display of the error a crate fn returned (`Err(e) => ContentBlock::text(e.to_string())`), and
//! that fn (or one whose text errors it passes on) fails with a literal (`bail!("..")`). The
//! literal is what the model reads, and where a better text goes.

use std::collections::{HashMap, HashSet};

use crate::model::ids::BodyId;
use crate::model::site::{
    CallEdge, Callee, Channel, ErrorSite, ReturnedErrors, ReturnedText, ShownError,
};
use crate::source::{FileId, Span};

/// A literal message that reaches a tool's answer whole.
#[derive(Clone, Debug)]
pub struct ShownText {
    pub file: FileId,
    pub span: Span,
    pub value: String,
    pub channel: Channel,
    /// The fn it is written in takes inputs besides its receiver ([`ReturnedText::takes_inputs`]).
    pub takes_inputs: bool,
    /// The answers that show it.
    pub related: Vec<(FileId, Span, String)>,
}

/// Each literal message that a tool's answer shows whole, once, with the answers attached. Under
/// `{:#}` a message with a cause is followed by it, so it is not the whole text.
pub fn shown_texts<'s>(
    sites: impl IntoIterator<Item = &'s ErrorSite>,
    returned: &[ReturnedErrors],
    edges: &[CallEdge],
) -> Vec<ShownText> {
    let mut out: Vec<ShownText> = Vec::new();
    let mut at: HashMap<(FileId, Span), usize> = HashMap::new();
    let mut reaching: HashMap<BodyId, Vec<&ReturnedText>> = HashMap::new();
    // What each body's Fn-typed parameters are handed: the crate fns the closures call.
    let mut closures: HashMap<(BodyId, usize), Vec<BodyId>> = HashMap::new();
    for e in edges {
        if let Callee::Body(callee) = e.callee {
            for &(param, called) in &e.closure_calls {
                closures.entry((callee, param)).or_default().push(called);
            }
        }
    }
    for site in sites {
        let Some((shown, alternate)) = site.shows_error_of else {
            continue;
        };
        if site.channel == Channel::ToolSuccess || !site.context.is_tool() {
            continue;
        }
        let bodies = match shown {
            ShownError::Body(body) => vec![body],
            ShownError::ClosureParam(param) => closures
                .get(&(site.body, param))
                .cloned()
                .unwrap_or_default(),
        };
        let mut texts: Vec<&ReturnedText> = Vec::new();
        for body in bodies {
            let of_body = reaching
                .entry(body)
                .or_insert_with(|| texts_reaching(body, returned));
            texts.extend(of_body.iter().copied());
        }
        for text in texts.iter().filter(|t| !(alternate && t.with_cause)) {
            let answer = (
                site.file,
                site.span,
                "shown whole in this answer".to_string(),
            );
            match at.get(&(text.file, text.span)) {
                Some(&i) => {
                    if !out[i].related.contains(&answer) {
                        out[i].related.push(answer);
                    }
                }
                None => {
                    at.insert((text.file, text.span), out.len());
                    out.push(ShownText {
                        file: text.file,
                        span: text.span,
                        value: text.value.clone(),
                        channel: site.channel,
                        takes_inputs: text.takes_inputs,
                        related: vec![answer],
                    });
                }
            }
        }
    }
    out
}

/// The literal messages `body` fails with, its own and those of the bodies whose text errors it
/// passes on, transitively.
fn texts_reaching(body: BodyId, returned: &[ReturnedErrors]) -> Vec<&ReturnedText> {
    let mut seen = HashSet::from([body]);
    let mut stack = vec![body];
    let mut texts = Vec::new();
    while let Some(b) = stack.pop() {
        let Some(r) = returned.get(b.0) else {
            continue;
        };
        texts.extend(r.texts.iter());
        for t in &r.texts_through {
            if seen.insert(*t) {
                stack.push(*t);
            }
        }
    }
    texts
}
