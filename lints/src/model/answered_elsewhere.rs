//! Values whose answer is built elsewhere, resolved once every site is known: a dispatch's
//! catch-all `Err` that a later `match` answers ([`Origin::AnsweredLater`]), and the unknown
//! tool's `Err` a dispatcher returns to a caller that answers it ([`Origin::ReturnedUnknownTool`],
//! with the callers' `Err` arms recorded as [`Origin::ErrArmOf`]). Each becomes a site at the
//! value with the answer's channel and code, in the value's own context.

use std::collections::HashSet;

use crate::model::ids::{BodyId, FileId};
use crate::model::site::{Channel, ErrorSite, Origin, SiteContext};
use crate::source::Span;

/// The walk's placeholders, set apart from the sites.
pub struct Pending {
    values: Vec<(ErrorSite, Option<SiteContext>)>,
    err_arms: Vec<ErrorSite>,
}

impl Pending {
    /// The placeholders among the walk's sites, and the sites.
    #[allow(clippy::type_complexity)]
    pub fn split(
        walked: Vec<(ErrorSite, Option<SiteContext>)>,
    ) -> (Pending, Vec<(ErrorSite, Option<SiteContext>)>) {
        let mut pending = Pending {
            values: Vec::new(),
            err_arms: Vec::new(),
        };
        let mut sites = Vec::with_capacity(walked.len());
        for (site, arm) in walked {
            match site.origin {
                Origin::ErrArmOf { .. } => pending.err_arms.push(site),
                Origin::AnsweredLater { .. } | Origin::ReturnedUnknownTool { .. } => {
                    pending.values.push((site, arm))
                }
                _ => sites.push((site, arm)),
            }
        }
        (pending, sites)
    }

    /// Adds to `sites` the site each value's answer makes (`through`: per body, the bodies whose
    /// errors it passes on).
    /// `called_within(body, file, span)`: the bodies the calls in that span of `body` reach.
    pub fn resolve(
        self,
        sites: &mut Vec<ErrorSite>,
        through: &[&[BodyId]],
        called_within: &CalledWithin<'_>,
    ) {
        let Pending { values, err_arms } = self;
        let answers = values
            .into_iter()
            .filter_map(|(value, context)| match value.origin {
                Origin::AnsweredLater { .. } => answer_of_later_arm(value, context?, sites),
                _ => answer_of_returned_unknown_tool(
                    value,
                    context?,
                    sites,
                    &err_arms,
                    through,
                    called_within,
                ),
            })
            .collect::<Vec<_>>();
        sites.extend(answers);
    }
}

/// The site an [`Origin::AnsweredLater`] value becomes: the first tool result (isError or
/// not) or protocol error its `Err` arm builds (itself, or through a helper), at the value, in
/// the value's own context (the unknown tool's); `None` when the arm builds none.
fn answer_of_later_arm(
    value: ErrorSite,
    context: SiteContext,
    sites: &mut [ErrorSite],
) -> Option<ErrorSite> {
    let Origin::AnsweredLater { answered_at } = value.origin else {
        return None;
    };
    let answer = sites.iter_mut().find(|s| {
        s.body == value.body
            && s.file == value.file
            && answered_at.start <= s.span.start
            && s.span.end <= answered_at.end
            && is_answer(s.channel)
    })?;
    answer.answers_unknown_tool = true;
    Some(as_answered(&value, context, answer))
}

/// A tool result (isError or not) or a protocol error: what answers a call.
fn is_answer(channel: Channel) -> bool {
    matches!(
        channel,
        Channel::ToolError | Channel::Protocol | Channel::ToolSuccess
    )
}

/// `value` as the site its answer makes: the answer's channel and code at the value, in the
/// value's context, with the answer as a related location.
fn as_answered(value: &ErrorSite, context: SiteContext, answer: &ErrorSite) -> ErrorSite {
    ErrorSite {
        file: value.file,
        span: value.span,
        body: value.body,
        origin: Origin::AnsweredLater {
            answered_at: answer.span,
        },
        context,
        related: vec![(
            answer.file,
            answer.span,
            "the `Err` is answered here".to_string(),
        )],
        answer_members: Vec::new(),
        shows_error_of: None,
        answers_unknown_tool: false,
        errors_of: None,
        ..answer.clone()
    }
}

/// The bodies the calls inside a span of a body reach.
pub type CalledWithin<'c> = dyn Fn(BodyId, FileId, Span) -> Vec<BodyId> + 'c;

/// The site an [`Origin::ReturnedUnknownTool`] value becomes: what a caller builds for it,
/// either where it maps the errors a router returns (`Err(e) => { let (code, message) =
/// map_error(&e); json!(..) }` after `handle_request(..)`, see [`ErrorSite::errors_of`]) for that
/// variant, or in the one `Err(e)` arm of a `match` over what a fn passing the value on returned
/// (`match dispatch(name, ..) { Err(e) => tool_error(id, &e) }`); `None` when nothing answers it.
fn answer_of_returned_unknown_tool(
    value: ErrorSite,
    context: SiteContext,
    sites: &[ErrorSite],
    err_arms: &[ErrorSite],
    through: &[&[BodyId]],
    called_within: &CalledWithin<'_>,
) -> Option<ErrorSite> {
    let Origin::ReturnedUnknownTool { variant } = &value.origin else {
        return None;
    };
    let answers = |s: &ErrorSite| {
        is_answer(s.channel)
            && !matches!(
                s.origin,
                Origin::AnsweredLater { .. } | Origin::ReturnedUnknownTool { .. }
            )
            && match (&s.variant, variant) {
                (Some(tag), Some((e, v))) => tag.admits(*e, v),
                (Some(_), None) => false,
                (None, _) => true,
            }
    };
    let mapped = sites.iter().find(|s| {
        answers(s)
            && s.errors_of
                .is_some_and(|from| passes_errors_of(from, value.body, through))
    });
    let answer = mapped.or_else(|| {
        err_arms.iter().find_map(|arm| {
            let Origin::ErrArmOf {
                callee,
                variant: named,
            } = &arm.origin
            else {
                return None;
            };
            let callee = *callee;
            // An arm naming a variant answers that variant only.
            let admitted = match (named, variant) {
                (Some(n), Some((_, v))) => n == v,
                (Some(_), None) => false,
                (None, _) => true,
            };
            if !admitted {
                return None;
            }
            if !passes_errors_of(callee, value.body, through) {
                return None;
            }
            sites
                .iter()
                .find(|s| {
                    answers(s)
                        && s.body == arm.body
                        && s.file == arm.file
                        && arm.span.start <= s.span.start
                        && s.span.end <= arm.span.end
                })
                // `Err(e) => { let error: JsonRpcError = e.into(); .. }`: the mapping the arm
                // calls builds the answer, per variant.
                .or_else(|| {
                    let mapping = called_within(arm.body, arm.file, arm.span);
                    sites
                        .iter()
                        .find(|s| answers(s) && s.variant.is_some() && mapping.contains(&s.body))
                })
        })
    })?;
    Some(as_answered(&value, context, answer))
}

/// Whether the errors `from` returns include those of `body` (itself, or a body it passes
/// errors on from, transitively).
fn passes_errors_of(from: BodyId, body: BodyId, through: &[&[BodyId]]) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if b == body {
            return true;
        }
        if seen.insert(b) {
            stack.extend(through.get(b.0).copied().unwrap_or(&[]));
        }
    }
    false
}
