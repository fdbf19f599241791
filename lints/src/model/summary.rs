//! Per-fn summaries, computed once: what a call of each body can produce (its own error sites
//! and its callees', transitively), grouped by what the lints tell apart — channel, code,
//! server-fault and schema-level path, empty content, the enum variants that reach it — with a
//! few sites of each group kept to say where it is built. Bottom-up over the call graph's
//! strongly connected components (one union per component), so the whole is linear in the code
//! and a call instantiates its callee's summary instead of walking everything it reaches.

use std::collections::HashMap;

use crate::model::ids::{BodyId, ItemId};
use crate::model::site::{Channel, ErrorSite, ReturnedErrors, VariantTag};

/// How many sites of one group a summary keeps (the first is the group's representative).
const SITES_PER_GROUP: usize = 4;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupKey {
    pub channel: Channel,
    pub code: Option<i64>,
    pub server_fault: bool,
    pub schema_level: bool,
    pub client_declaration: bool,
    pub request_failure: bool,
    pub empty_content: bool,
    pub variant: Option<VariantTag>,
    /// See [`ErrorSite::result_arm`]: the body's own input, so a call settles it.
    pub result_arm: Option<(usize, bool)>,
}

impl GroupKey {
    pub fn of(site: &ErrorSite) -> GroupKey {
        GroupKey {
            channel: site.channel,
            code: site.code,
            server_fault: site.path.server_fault,
            schema_level: site.path.schema_level,
            client_declaration: site.path.client_declaration,
            request_failure: site.path.request_failure,
            empty_content: site.empty_content,
            variant: site.variant.clone(),
            result_arm: site.result_arm,
        }
    }
}

/// One group of what a body can produce: indices into the crate's sites.
#[derive(Clone, Debug)]
pub struct Group {
    pub key: GroupKey,
    pub sites: Vec<usize>,
}

/// What each body can produce. Members of one cycle share one summary.
pub struct Summaries {
    /// Body → its component.
    component: Vec<usize>,
    /// Component → its groups, in first-seen order.
    groups: Vec<Vec<Group>>,
}

/// One resolved call of a body, for the summaries.
#[derive(Clone, Debug)]
pub struct BodyCall {
    pub callee: BodyId,
    /// The variants the call instantiates the callee with (`mk(Kind::Internal, ..)`, a `?` on
    /// a fn that returns only `NotFound`); `None` when the source does not tell.
    pub variants: Option<Vec<(ItemId, String)>>,
    /// The inputs it passes as a literal `Ok(..)` or `Err(..)` (see [`crate::model::site::CallEdge::result_args`]).
    pub result_args: Vec<(usize, bool)>,
    /// See [`crate::model::site::CallEdge::in_result_arm`].
    pub in_result_arm: Option<(usize, bool)>,
}

impl BodyCall {
    /// The key a callee's group takes in the caller's summary, `None` when the call passes a
    /// variant no site of the group is reached by. A tag over an enum the call picks from is
    /// settled by the call (the caller's callers pass no value of it), so it is dropped.
    fn instantiate(&self, key: &GroupKey) -> Option<GroupKey> {
        if !admits_result_args(key.result_arm, &self.result_args) {
            return None;
        }
        // The input is the callee's: in the caller, the arm is the one the call sits in.
        let key = &GroupKey {
            result_arm: self.in_result_arm,
            ..key.clone()
        };
        let (Some(vs), Some(tag)) = (&self.variants, &key.variant) else {
            return Some(key.clone());
        };
        if vs.is_empty() {
            return Some(key.clone());
        }
        if !vs.iter().any(|(e, v)| tag.admits(*e, v)) {
            return None;
        }
        let settled = vs.iter().any(|(e, _)| tag.enum_id() == *e);
        Some(GroupKey {
            variant: if settled { None } else { key.variant.clone() },
            ..key.clone()
        })
    }
}

/// Whether a call passing `args` (see [`crate::model::site::CallEdge::result_args`]) can reach what is built in
/// `arm` (see [`ErrorSite::result_arm`]): not when it passes the other variant for that input.
pub fn admits_result_args(arm: Option<(usize, bool)>, args: &[(usize, bool)]) -> bool {
    arm.is_none_or(|(input, ok)| !args.contains(&(input, !ok)))
}

impl Summaries {
    /// `calls[b]`: the calls body `b` makes (resolved); `sites`: every site, with its body.
    pub fn compute(calls: &[Vec<BodyCall>], sites: &[ErrorSite]) -> Summaries {
        let callees: Vec<Vec<BodyId>> = calls
            .iter()
            .map(|cs| cs.iter().map(|c| c.callee).collect())
            .collect();
        let n = callees.len();
        let mut own: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, s) in sites.iter().enumerate() {
            if let Some(list) = own.get_mut(s.body.0) {
                list.push(i);
            }
        }
        let components = tarjan(&callees);
        let mut component = vec![0; n];
        for (c, members) in components.iter().enumerate() {
            for b in members {
                component[b.0] = c;
            }
        }
        // Tarjan emits a component after every component it reaches: callees first.
        let mut groups: Vec<Vec<Group>> = Vec::with_capacity(components.len());
        for (c, members) in components.iter().enumerate() {
            let mut acc = Accumulator::default();
            for b in members {
                for &i in &own[b.0] {
                    acc.add(GroupKey::of(&sites[i]), std::iter::once(i));
                }
            }
            for b in members {
                for call in &calls[b.0] {
                    let cc = component[call.callee.0];
                    if cc == c {
                        continue;
                    }
                    for g in &groups[cc] {
                        if let Some(key) = call.instantiate(&g.key) {
                            acc.add(key, g.sites.iter().copied());
                        }
                    }
                }
            }
            groups.push(acc.groups);
        }
        Summaries { component, groups }
    }

    /// What a call of `body` can produce.
    pub fn of(&self, body: BodyId) -> &[Group] {
        self.component
            .get(body.0)
            .map_or(&[], |c| self.groups[*c].as_slice())
    }
}

/// The variants of its declared error enum each body can return, closed over the fns it passes
/// errors on from (one set per cycle).
pub struct ErrorVariants {
    component: Vec<usize>,
    /// Component → the enum and its variants; `None` when some may be any variant.
    sets: Vec<Option<(ItemId, Vec<String>)>>,
}

impl ErrorVariants {
    pub fn compute(returned: &[ReturnedErrors]) -> ErrorVariants {
        let through: Vec<Vec<BodyId>> = returned.iter().map(|r| r.through.clone()).collect();
        let components = tarjan(&through);
        let mut component = vec![0; returned.len()];
        for (c, members) in components.iter().enumerate() {
            for b in members {
                component[b.0] = c;
            }
        }
        let mut sets: Vec<Option<(ItemId, Vec<String>)>> = Vec::with_capacity(components.len());
        for (c, members) in components.iter().enumerate() {
            let mut set: Option<(ItemId, Vec<String>)> = None;
            let mut known = true;
            let mut add = |e: ItemId, vs: &[String]| match &mut set {
                Some((id, _)) if *id != e => false,
                Some((_, have)) => {
                    for v in vs {
                        if !have.contains(v) {
                            have.push(v.clone());
                        }
                    }
                    true
                }
                None => {
                    set = Some((e, vs.to_vec()));
                    true
                }
            };
            for b in members {
                let r = &returned[b.0];
                let Some(e) = r.error_enum.filter(|_| !r.unknown) else {
                    known = false;
                    continue;
                };
                known &= add(e, &r.variants);
                for t in &r.through {
                    if component[t.0] == c {
                        continue;
                    }
                    match &sets[component[t.0]] {
                        Some((te, vs)) => known &= add(*te, vs),
                        None => known = false,
                    }
                }
            }
            sets.push(set.filter(|_| known));
        }
        ErrorVariants { component, sets }
    }

    /// The enum and variants a call of `body` can fail with; `None` when any.
    pub fn of(&self, body: BodyId) -> Option<(ItemId, &[String])> {
        let c = *self.component.get(body.0)?;
        self.sets[c].as_ref().map(|(e, vs)| (*e, vs.as_slice()))
    }
}

#[derive(Default)]
struct Accumulator {
    groups: Vec<Group>,
    index: HashMap<GroupKey, usize>,
}

impl Accumulator {
    fn add(&mut self, key: GroupKey, sites: impl Iterator<Item = usize>) {
        let at = match self.index.get(&key) {
            Some(&at) => at,
            None => {
                self.index.insert(key.clone(), self.groups.len());
                self.groups.push(Group {
                    key,
                    sites: Vec::new(),
                });
                self.groups.len() - 1
            }
        };
        let group = &mut self.groups[at];
        for s in sites {
            if group.sites.len() >= SITES_PER_GROUP {
                break;
            }
            if !group.sites.contains(&s) {
                group.sites.push(s);
            }
        }
    }
}

/// Strongly connected components, each emitted after every component it reaches (iterative:
/// call chains of any depth).
fn tarjan(callees: &[Vec<BodyId>]) -> Vec<Vec<BodyId>> {
    let n = callees.len();
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, position in its callee list)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if let Some(w) = callees[v].get(*pos).map(|b| b.0) {
                *pos += 1;
                if w >= n {
                    continue;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(BodyId(w));
                    if w == v {
                        break;
                    }
                }
                out.push(members);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_callees_first_and_cycles_share_one() {
        // 0 → 1 → 2 → 1, 0 → 3
        let callees = vec![
            vec![BodyId(1), BodyId(3)],
            vec![BodyId(2)],
            vec![BodyId(1)],
            vec![],
        ];
        let comps = tarjan(&callees);
        let pos = |b: usize| comps.iter().position(|c| c.contains(&BodyId(b))).unwrap();
        assert_eq!(pos(1), pos(2));
        assert!(pos(1) < pos(0));
        assert!(pos(3) < pos(0));
        assert_eq!(comps.len(), 3);
    }

    #[test]
    fn a_chain_of_any_length_is_walked_without_recursion() {
        let n = 200_000;
        let callees: Vec<Vec<BodyId>> = (0..n)
            .map(|i| {
                if i + 1 < n {
                    vec![BodyId(i + 1)]
                } else {
                    vec![]
                }
            })
            .collect();
        assert_eq!(tarjan(&callees).len(), n);
    }
}
