//! Which of the bodies' own answer values reach a tool's success answer ([`BodyAnswers`]):
//! per body, computed once, the answer values its returned value can be (its own and its
//! callees', transitively) and the inputs it passes on; a call instantiates its callee's summary
//! with the call's arguments. Followed from every success answer a tool gives, each answer value
//! it reaches becomes a site on the success channel, in the context of the tool (or the dispatch
//! arm) that answers with it: failure text built in a match arm, a `let` or a `String` helper and
//! wrapped in a success result later is a failure answered as success.

use std::collections::{HashMap, HashSet};

use crate::model::ids::BodyId;
use crate::model::site::{
    AnswerSource, BodyAnswers, Callee, Channel, ErrorSite, SiteContext, SuccessAnswer,
};

/// How many answer values one summary keeps.
const MAX_REACHED: usize = 256;
/// How deep summaries are computed through calls before giving up on a chain.
const MAX_CALL_DEPTH: usize = 48;

/// An answer value of some body, with the dispatch arm it is answered in when one is known on
/// the way to it.
#[derive(Clone)]
struct Reached {
    body: BodyId,
    answer: usize,
    arm: Option<SiteContext>,
}

/// What a body's returned value can be: answer values, and its inputs as they are.
#[derive(Clone, Default)]
struct Summary {
    reached: Vec<Reached>,
    params: Vec<usize>,
}

impl Summary {
    fn add(&mut self, r: Reached) {
        if self.reached.len() < MAX_REACHED
            && !self
                .reached
                .iter()
                .any(|x| x.body == r.body && x.answer == r.answer)
        {
            self.reached.push(r);
        }
    }
}

struct Summaries<'b> {
    bodies: &'b [BodyAnswers],
    done: Vec<Option<Summary>>,
    /// Bodies whose summary is being computed (a cycle: what is known so far counts).
    active: Vec<bool>,
}

impl Summaries<'_> {
    fn of(&mut self, b: BodyId, depth: usize) -> Summary {
        if let Some(s) = &self.done[b.0] {
            return s.clone();
        }
        if self.active[b.0] || depth > MAX_CALL_DEPTH {
            return Summary::default();
        }
        self.active[b.0] = true;
        let sources = &self.bodies[b.0].returned;
        let s = self.eval(b, sources, depth);
        self.active[b.0] = false;
        self.done[b.0] = Some(s.clone());
        s
    }

    /// What `sources`, in body `b`, can be.
    fn eval(&mut self, b: BodyId, sources: &[AnswerSource], depth: usize) -> Summary {
        let mut out = Summary::default();
        for source in sources {
            match source {
                AnswerSource::Answer(i) => out.add(Reached {
                    body: b,
                    answer: *i,
                    arm: None,
                }),
                AnswerSource::Param(i) => {
                    if !out.params.contains(i) {
                        out.params.push(*i);
                    }
                }
                AnswerSource::Call { callee, arm, args } => {
                    let bodies: &[BodyId] = match callee {
                        Callee::Body(_) | Callee::Dispatch(_) => callee.bodies(),
                        Callee::Candidates(_) | Callee::FromImpls(_) | Callee::Slot(..) => &[],
                    };
                    for &cb in bodies {
                        if cb.0 >= self.bodies.len() {
                            continue;
                        }
                        let callee_summary = self.of(cb, depth + 1);
                        let mut reached = callee_summary.reached;
                        for p in callee_summary.params {
                            let Some(arg) = args.get(p) else {
                                continue;
                            };
                            let passed = self.eval(b, arg, depth + 1);
                            reached.extend(passed.reached);
                            for q in passed.params {
                                if !out.params.contains(&q) {
                                    out.params.push(q);
                                }
                            }
                        }
                        for mut r in reached {
                            if r.arm.is_none() {
                                r.arm = arm.clone();
                            }
                            out.add(r);
                        }
                    }
                }
            }
        }
        out
    }
}

/// The answer values that reach a tool's success answer, as sites in the context that answers
/// with them (`context_of(body, arm)` is the reach's): each once, and none around a site of
/// `sites` or inside one that is judged with what it holds: any but a success result off the
/// answer's failure path (`Err(e) => Ok(success(vec![text(format!(..))]))` is one finding,
/// `success(vec![text(match r { .., Err(e) => format!(..) })])` is the text's).
pub fn success_answers(
    bodies: &[BodyAnswers],
    context_of: &dyn Fn(BodyId, Option<&SiteContext>) -> SiteContext,
    sites: &[ErrorSite],
) -> Vec<ErrorSite> {
    // Per file: each site's extent, and whether an answer inside it is its own finding (inside
    // a success result that is not on its failure path).
    let mut holders: HashMap<usize, Vec<(usize, usize, bool)>> = HashMap::new();
    for s in sites {
        holders.entry(s.file.0).or_default().push((
            s.span.start,
            s.span.end,
            s.channel == Channel::ToolSuccess && !s.path.in_fallback,
        ));
    }
    // Success answers on a failure path are judged themselves (`Err(Rejection(r)) =>
    // Ok(CallToolResult::success(vec![text(body)]))`): what reaches them is that one failure.
    let judged_answers: HashSet<(usize, usize, usize)> = sites
        .iter()
        .filter(|s| {
            s.channel == Channel::ToolSuccess
                && s.path.on_failure_path
                && !s.path.server_fault
                && !s.path.lookup_miss
        })
        .map(|s| (s.file.0, s.span.start, s.span.end))
        .collect();
    let mut summaries = Summaries {
        bodies,
        done: vec![None; bodies.len()],
        active: vec![false; bodies.len()],
    };
    // Each place a value is answered as success: a body's own success answers, and the calls
    // into a helper that answers its parameter as success (`Ok(value) => Ok(tool_success(value))`
    // with `fn tool_success(value: Value) -> Value { json!({"content": [{"text": ..value..}]}) }`),
    // with the caller's argument.
    let mut uses: Vec<AnsweredAt<'_>> = Vec::new();
    let mut answers_param: HashMap<BodyId, Vec<(usize, &SuccessAnswer)>> = HashMap::new();
    for (b, answers) in bodies.iter().enumerate() {
        for success in &answers.success {
            if judged_answers.contains(&(success.file.0, success.span.start, success.span.end)) {
                continue;
            }
            let summary = summaries.eval(BodyId(b), &success.sources, 0);
            for p in summary.params {
                answers_param
                    .entry(BodyId(b))
                    .or_default()
                    .push((p, success));
            }
            uses.push(AnsweredAt {
                consumer: BodyId(b),
                reached: summary.reached,
                arm: success.arm.as_ref(),
                success,
                via_helper: false,
            });
        }
    }
    if !answers_param.is_empty() {
        for (b, answers) in bodies.iter().enumerate() {
            let all = answers
                .returned
                .iter()
                .chain(answers.success.iter().flat_map(|s| &s.sources));
            let mut calls = Vec::new();
            for source in all {
                helper_calls(source, &answers_param, &mut calls, 0);
            }
            for (arg, arm, success) in calls {
                uses.push(AnsweredAt {
                    consumer: BodyId(b),
                    reached: summaries.eval(BodyId(b), arg, 0).reached,
                    arm: arm.as_ref(),
                    success,
                    via_helper: true,
                });
            }
        }
    }
    let mut seen: HashMap<(usize, usize, usize), usize> = HashMap::new();
    let mut out: Vec<ErrorSite> = Vec::new();
    for at in uses {
        let (consumer, success) = (at.consumer, at.success);
        for r in at.reached {
            let (site, own_arm) = &bodies[r.body.0].answers[r.answer];
            let arm = own_arm.as_ref().or(r.arm.as_ref()).or(at.arm);
            let context = match arm {
                Some(arm) => arm.clone(),
                None => context_of(consumer, None),
            };
            if !context.answers_tool_calls() {
                continue;
            }
            let key = (site.file.0, site.span.start, site.span.end);
            // A result built around it, or one it wraps (`ToolOutput::Result(error(..))`),
            // is judged as itself.
            let inside_judged = holders.get(&site.file.0).is_some_and(|spans| {
                spans.iter().any(|&(start, end, open)| {
                    let inside = start <= site.span.start && site.span.end <= end;
                    let around = site.span.start <= start && end <= site.span.end;
                    around || (inside && !(open && site.path.in_fallback))
                })
            });
            if inside_judged {
                continue;
            }
            let answer = (r.body != consumer || at.via_helper).then(|| {
                (
                    success.file,
                    success.span,
                    "answered as a success result here".to_string(),
                )
            });
            // One finding per answer value, with every success answer it reaches attached.
            if let Some(&i) = seen.get(&key) {
                let site: &mut ErrorSite = &mut out[i];
                if let Some(answer) = answer.filter(|a| !site.related.contains(a)) {
                    site.related.push(answer);
                }
                continue;
            }
            seen.insert(key, out.len());
            let mut site = site.clone();
            site.related.extend(answer);
            site.context = context;
            out.push(site);
        }
    }
    out
}

/// A place where a value is answered as success, and where that value comes from.
struct AnsweredAt<'b> {
    consumer: BodyId,
    /// The answers that reach it.
    reached: Vec<Reached>,
    /// The dispatch arm it sits in.
    arm: Option<&'b SiteContext>,
    success: &'b SuccessAnswer,
    /// Answered by a helper the consumer hands the value to.
    via_helper: bool,
}

/// The calls among `source` (and the arguments it passes on) into helpers that answer a
/// parameter as success: the argument given there, the call's arm, and the helper's answer.
fn helper_calls<'b>(
    source: &'b AnswerSource,
    answers_param: &HashMap<BodyId, Vec<(usize, &'b SuccessAnswer)>>,
    out: &mut Vec<(
        &'b Vec<AnswerSource>,
        &'b Option<SiteContext>,
        &'b SuccessAnswer,
    )>,
    depth: usize,
) {
    let AnswerSource::Call { callee, arm, args } = source else {
        return;
    };
    if depth > MAX_CALL_DEPTH {
        return;
    }
    for b in callee.bodies() {
        for (p, success) in answers_param.get(b).into_iter().flatten() {
            if let Some(arg) = args.get(*p) {
                out.push((arg, arm, success));
            }
        }
    }
    for arg in args {
        for inner in arg {
            helper_calls(inner, answers_param, out, depth + 1);
        }
    }
}
