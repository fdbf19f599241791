//! Which of the bodies' own answer values reach a tool's success answer ([`BodyAnswers`]):
//! per body, computed once, the answer values its returned value can be (its own and its
//! callees', transitively) and the inputs it passes on; a call instantiates its callee's summary
//! with the call's arguments. Followed from every success answer a tool gives, each answer value
//! it reaches becomes a site on the success channel, in the context of the tool (or the dispatch
//! arm) that answers with it: failure text built in a match arm, a `let` or a `String` helper and
//! wrapped in a success result later is a failure answered as success.

use std::collections::{HashMap, HashSet};

use crate::model::ids::BodyId;
use crate::model::site::{AnswerSource, BodyAnswers, Callee, Channel, ErrorSite, SiteContext};

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
    let mut seen: HashSet<(usize, usize, usize)> = HashSet::new();
    let mut out = Vec::new();
    for (b, answers) in bodies.iter().enumerate() {
        let consumer = BodyId(b);
        for success in &answers.success {
            if judged_answers.contains(&(success.file.0, success.span.start, success.span.end)) {
                continue;
            }
            let reached = summaries.eval(consumer, &success.sources, 0);
            for r in reached.reached {
                let (site, own_arm) = &bodies[r.body.0].answers[r.answer];
                let arm = own_arm.as_ref().or(r.arm.as_ref()).or(success.arm.as_ref());
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
                if inside_judged || !seen.insert(key) {
                    continue;
                }
                let mut site = site.clone();
                if r.body != consumer {
                    site.related.push((
                        success.file,
                        success.span,
                        "answered as a success result here".to_string(),
                    ));
                }
                site.context = context;
                out.push(site);
            }
        }
    }
    out
}
