//! P57b: build the observed tool-decision record (`assay.tool_decision_surface.v0`) from a proxied
//! `tools/call`. Spec: docs/reference/tool-decision-surface.md.
//!
//! Two load-bearing rules are enforced here by construction:
//!
//! - **No raw arguments or secrets ever ride in the record.** The builder never copies the call
//!   arguments into the decision; it records `arguments_redacted: true` and
//!   `secret_material_stored: false`. A credential is referenced by alias only, never by value.
//! - **Asserted is not verified.** The proxy only observes that the tool returned; it cannot prove
//!   the SaaS side effect. `side_effect_verified` is therefore always `false` here. It can only
//!   become true when separate, checked audit evidence confirms it, which the proxy never has.
//!
//! Privileged-action classification (the `github_deploy_key` / `slack_add_member` /
//! `workspace_admin` classifiers) is P57c. Until then every observed tool is `observed_unknown_tool`,
//! which is deliberately never read as clean.

use crate::cache::sha256_hex;
use crate::classifier_table::CLASSIFIER_TOOLS;
use crate::side_effect::IrreversibilityClass;
use serde_json::{json, Value};

pub const SCHEMA: &str = "assay.tool_decision_surface.v0";

/// Domain-separated, normalized pseudonym for a sensitive identifier. The value is trimmed and
/// lowercased, then hashed under a per-field domain (`assay.tool_target.v0:<domain>:<value>`) so a
/// hash from one field can never collide with another, and the raw value is never stored.
///
/// This is pseudonymization, not anonymization: equal inputs yield equal hashes. The only claim is
/// that the raw argument is not stored, not that the principal is unrecoverable.
fn target_hash(domain: &str, value: &str) -> String {
    let normalized = value.trim().to_lowercase();
    let preimage = format!("assay.tool_target.v0:{domain}:{normalized}");
    format!("sha256:{}", sha256_hex(preimage.as_bytes()))
}

/// Argument keys whose values are secret-like. The classifiers never read these for projection and
/// never hash them (a hash of a public key can still leak correlation; a token hash invites offline
/// brute force). They are dropped by construction: the classifiers only read the allowlisted target
/// fields. This list and the detector below exist to TEST that discipline, not to drive it.
#[cfg(test)]
const SECRET_LIKE_KEYS: &[&str] = &[
    "public_key",
    "private_key",
    "token",
    "access_token",
    "authorization",
    "secret",
    "credential",
    "password",
    "api_key",
];

fn str_field<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(|v| v.as_str())
}

#[cfg(test)]
fn observed_secret_arg(args: &Value) -> bool {
    args.as_object()
        .map(|o| o.keys().any(|k| SECRET_LIKE_KEYS.contains(&k.as_str())))
        .unwrap_or(false)
}

/// The effect the proxy decided for the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Allow,
    Deny,
    Error,
}

impl Effect {
    fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Deny => "deny",
            Effect::Error => "error",
        }
    }
}

/// Map a `handle_call` result to the observed effect and status `Server::run`
/// records. One function so the fuzz target cannot invent a second reading.
///
/// An `error.code` is Error even when `allowed` is true. Otherwise `allowed:
/// true` is Allow and every other result is Deny.
pub fn observed_effect(result: &Value) -> (Effect, String) {
    if let Some(code) = result
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(|v| v.as_str())
    {
        (Effect::Error, code.to_string())
    } else if result
        .get("allowed")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        (Effect::Allow, "success".to_string())
    } else {
        (Effect::Deny, "blocked".to_string())
    }
}

/// Inputs the proxy has at the `tool_call_done` site.
pub struct ObservedCall<'a> {
    pub server_id: &'a str,
    pub tool_name: &'a str,
    /// Raw call arguments. They are inspected by the classifier to PROJECT named target fields
    /// (hashing sensitive ids); they are never copied into the record verbatim.
    pub args: &'a Value,
    pub effect: Effect,
    /// Machine-readable status string (e.g. "success", "blocked", "error", "timeout").
    pub status: &'a str,
    /// Policy rule id if the decision named one; `None` falls back to a neutral marker.
    pub rule_id: Option<&'a str>,
    /// Raw `_meta.traceparent` from the request (SEP-414), if the client sent one. The record
    /// types it as a propagated claim; it is never an observed transport fact. `tracestate` and
    /// `baggage` are deliberately not retained: their values are free-form and may carry data
    /// the redaction rules cannot reason about.
    pub traceparent: Option<&'a str>,
}

/// Outcome of running the rule-based privileged-action classifiers over one observed call. Total:
/// every call yields one of the states below, never `None`. An unrecognized tool is still evidence.
pub struct Classified {
    /// Tool category (`github_deploy_key` etc.), or `None` for an unrecognized tool.
    pub category: Option<&'static str>,
    /// One of: `classified`, `classified_incomplete`, `observed_unknown_tool`, `redaction_failed`.
    pub state: &'static str,
    pub class: &'static str,
    pub verb: Option<&'static str>,
    pub resource_type: Option<&'static str>,
    /// Projected target: only named, allowlisted fields, sensitive ids hashed. `Null` when unknown.
    pub target: Value,
    /// Machine-readable reason for the state (downstream never parses prose).
    pub reason_code: &'static str,
    /// Optional human-readable specifics (e.g. which field was missing).
    pub detail: Option<String>,
}

fn unknown() -> Classified {
    Classified {
        category: None,
        state: "observed_unknown_tool",
        class: "unclassified",
        verb: None,
        resource_type: None,
        target: Value::Null,
        reason_code: "unknown_tool_name",
        detail: None,
    }
}

/// The scope a classified action requires, derived deterministically from the action category. This
/// is Assay's static claim about what the action needs, NOT a provider-verified grant requirement and
/// NOT inferred from arguments. `None` for an unclassified tool (the consumer reads that as
/// `required_scope_unknown`, never as "no scope needed"). A consumer compares this against the scopes
/// an operator declared for the credential alias (see docs/reference/credential-scope.md). The
/// enforcing proxy's credential-scope gate (P61e-c2) reads this as the per-action required scope.
pub fn required_scope_for(category: Option<&str>) -> Option<&'static str> {
    match category {
        Some("github_deploy_key") => Some("repo:deploy_key:write"),
        Some("slack_add_member") => Some("conversations:members:write"),
        Some("workspace_admin") => Some("workspace:admin"),
        _ => None,
    }
}

/// How costly it is if a classified action happened when it should not have, derived deterministically
/// from the action category — the same shape and the same discipline as [`required_scope_for`] above.
///
/// `None` for an unclassified tool, and the consumer reads that as *unknown*, never as `two_way`.
/// Defaulting an unrecognised action to the cheapest class would let an unclassified terminal action
/// read as harmless, which is precisely the phantom-grade failure
/// [`crate::side_effect::IrreversibilityClass`] carves out. Note this differs from
/// `mandate::policy::classify_tool`, which defaults an unmatched tool to `Read`: that default is safe
/// on an *authorization* lattice, where claiming less authority is conservative, and unsafe here,
/// where claiming less consequence is the overclaim.
///
/// These are Assay's static claims about the action class, not provider-verified facts. Each is the
/// honest reading of what the category does:
///
/// - `github_deploy_key` — a key grants standing access to a repository. Removing it does not undo
///   what was cloned or pushed while it existed, and there is no compensating action, so this is
///   consequential rather than merely irreversible.
/// - `slack_add_member` — the member saw the channel history. Removal does not unsee it.
/// - `workspace_admin` — an admin grant is the authority to make further changes, including ones
///   that outlive the grant.
pub fn irreversibility_for(category: Option<&str>) -> Option<IrreversibilityClass> {
    match category {
        Some("github_deploy_key") => Some(IrreversibilityClass::OneWayConsequential),
        Some("slack_add_member") => Some(IrreversibilityClass::OneWayConsequential),
        Some("workspace_admin") => Some(IrreversibilityClass::OneWayConsequential),
        _ => None,
    }
}

fn incomplete(
    category: &'static str,
    verb: &'static str,
    resource_type: &'static str,
    target: Value,
    detail: &str,
) -> Classified {
    Classified {
        category: Some(category),
        state: "classified_incomplete",
        class: "privileged_admin_action",
        verb: Some(verb),
        resource_type: Some(resource_type),
        target,
        reason_code: "missing_required_target_field",
        detail: Some(detail.to_string()),
    }
}

/// Rule-based privileged-action classifiers. Explicit name/alias matching only; no model or judge
/// decides a classification. The classifier reads args ONLY to project allowlisted target fields,
/// hashing sensitive ids under per-field domains; everything else (including any secret-like key) is
/// dropped, never copied. A matched tool with a missing required field is `classified_incomplete`
/// (never silently safe); an unmatched tool is `observed_unknown_tool` (never silently clean).
/// The dispatch table lives in `crate::classifier_table` (private, no public API); test matrices
/// iterate that same table rather than a hand list.
pub fn classify(tool_name: &str, args: &Value) -> Classified {
    let leaf = tool_name.rsplit('.').next().unwrap_or(tool_name);
    let spec = match CLASSIFIER_TOOLS.iter().find(|t| t.leaf == leaf) {
        Some(spec) => spec,
        None => return unknown(),
    };

    // github_deploy_key: owner + repo are required; owner/repo are plain (not sensitive), the key
    // title is hashed, the public/private key material is dropped (never read).
    if spec.category == "github_deploy_key" {
        let owner = str_field(args, "owner");
        let repo = str_field(args, "repo");
        let mut target = json!({ "provider": "github" });
        if let Some(o) = owner {
            target["owner"] = json!(sanitize(o));
        }
        if let (Some(_), Some(r)) = (owner, repo) {
            target["repo"] = json!(sanitize(r));
            if let Some(title) = str_field(args, "title").or_else(|| str_field(args, "key_title")) {
                target["key_title_hash"] = json!(target_hash("github_key_title", title));
            }
            if let Some(ro) = args.get("read_only").and_then(|v| v.as_bool()) {
                target["read_only"] = json!(ro);
            }
            return Classified {
                category: Some(spec.category),
                state: "classified",
                class: "privileged_admin_action",
                verb: Some(spec.verb),
                resource_type: Some(spec.resource_type),
                target,
                reason_code: "classified_github_deploy_key",
                detail: None,
            };
        }
        return incomplete(
            spec.category,
            spec.verb,
            spec.resource_type,
            target,
            "missing_github_owner_or_repo",
        );
    }

    // slack_add_member: a scope (workspace and/or channel) plus a principal. All ids are hashed
    // under their own domains; channel is null for workspace-level membership.
    if spec.category == "slack_add_member" {
        let workspace = str_field(args, "workspace_id");
        let channel = str_field(args, "channel_id");
        let principal = str_field(args, "user_id").or_else(|| str_field(args, "user"));
        if let (true, Some(p)) = (workspace.is_some() || channel.is_some(), principal) {
            let target = json!({
                "provider": "slack",
                "workspace_id_hash": workspace.map(|w| target_hash("slack_workspace", w)),
                "channel_id_hash": channel.map(|c| target_hash("slack_channel", c)),
                "principal_hash": target_hash("slack_principal", p),
            });
            return Classified {
                category: Some(spec.category),
                state: "classified",
                class: "privileged_admin_action",
                verb: Some(spec.verb),
                resource_type: Some(spec.resource_type),
                target,
                reason_code: "classified_slack_add_member",
                detail: None,
            };
        }
        let detail = if principal.is_none() {
            "missing_slack_principal"
        } else {
            "missing_slack_scope"
        };
        return incomplete(
            spec.category,
            spec.verb,
            spec.resource_type,
            json!({ "provider": "slack" }),
            detail,
        );
    }

    // workspace_admin: a deliberately narrow set of concrete admin verbs. workspace + principal are
    // hashed; the role is a plain label. The verb rides in the table row, so a new admin verb is
    // one row, not a second match arm.
    if spec.category == "workspace_admin" {
        let workspace = str_field(args, "workspace_id")
            .or_else(|| str_field(args, "workspace"))
            .or_else(|| str_field(args, "org"));
        let principal = str_field(args, "principal").or_else(|| str_field(args, "user"));
        if let (Some(w), Some(p)) = (workspace, principal) {
            let mut target = json!({
                "provider": "workspace",
                "workspace_id_hash": target_hash("workspace", w),
                "principal_hash": target_hash("workspace_principal", p),
            });
            if let Some(role) = str_field(args, "role") {
                target["role"] = json!(sanitize(role));
            }
            return Classified {
                category: Some(spec.category),
                state: "classified",
                class: "privileged_admin_action",
                verb: Some(spec.verb),
                resource_type: Some(spec.resource_type),
                target,
                reason_code: "classified_workspace_admin",
                detail: None,
            };
        }
        let detail = if workspace.is_none() {
            "missing_workspace_id"
        } else {
            "missing_workspace_principal"
        };
        return incomplete(
            spec.category,
            spec.verb,
            spec.resource_type,
            json!({ "provider": "workspace" }),
            detail,
        );
    }

    unknown()
}

/// Replace control characters (other than tab/newline/carriage-return) with U+FFFD, so a hostile
/// tool name cannot smuggle terminal escapes or NULs into a rendered record. Kept local to avoid a
/// new dependency; mirrors the evidence-layer terminal sanitization discipline.
pub fn sanitize(input: &str) -> String {
    input
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' && c != '\n' && c != '\r' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// A W3C `traceparent` (version-traceid-parentid-flags) with lowercase hex fields and non-zero
/// trace-id/parent-id. Anything else is retained only as the fact "malformed", never as bytes.
fn is_valid_traceparent(tp: &str) -> bool {
    let mut parts = tp.split('-');
    let (Some(version), Some(trace_id), Some(parent_id), Some(flags), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return false;
    };
    let hex = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    };
    hex(version, 2)
        && version != "ff" // forbidden by W3C Trace Context
        && hex(trace_id, 32)
        && hex(parent_id, 16)
        && hex(flags, 2)
        && trace_id.bytes().any(|b| b != b'0')
        && parent_id.bytes().any(|b| b != b'0')
}

/// Extract the `_meta.traceparent` carrier from `tools/call` params (SEP-414). `None` means no
/// carrier was sent; `Some("")` means a carrier was sent but is not a JSON string — the empty
/// string fails validation, so a non-string carrier is typed `malformed_trace_context`, never
/// silently collapsed into `none` (an absent carrier and a broken one are different facts).
pub fn traceparent_from_params(params: &Value) -> Option<&str> {
    params
        .get("_meta")
        .and_then(|m| m.get("traceparent"))
        .map(|v| v.as_str().unwrap_or(""))
}

/// The correlation basis of this record, typed. Three states, never silent (an absent carrier and
/// a malformed one are different facts): `propagated_trace_context` (valid `_meta.traceparent`
/// retained — a producer-propagated claim, not an observed transport fact), `malformed_trace_context`
/// (a carrier was sent but is not a valid traceparent; its bytes are not retained), `none` (the
/// record is stateless, per MCP 2026-07-28). Grouping built on this basis inherits its class.
fn correlation(traceparent: Option<&str>) -> Value {
    match traceparent {
        Some(tp) if is_valid_traceparent(tp) => json!({
            "basis": "propagated_trace_context",
            "traceparent": tp,
            "source_class": "propagated"
        }),
        Some(_) => json!({
            "basis": "malformed_trace_context",
            "traceparent": Value::Null,
            "source_class": Value::Null
        }),
        None => json!({
            "basis": "none",
            "traceparent": Value::Null,
            "source_class": Value::Null
        }),
    }
}

/// Build a single observed tool-decision entry. Redaction and the asserted-vs-verified rule are
/// applied here by construction; no caller can opt out of them.
pub fn build_decision(call: &ObservedCall<'_>) -> Value {
    // A side effect is *asserted* only when the tool was allowed and returned success. It is never
    // *verified* by the proxy.
    let side_effect_asserted = matches!(call.effect, Effect::Allow) && call.status == "success";
    // Every decision leaves this function at `asserted`. Nothing here can promote: a level above
    // asserted requires evidence this function does not have and must never invent.
    let c = classify(call.tool_name, call.args);
    // Consequence comes from the action's category; the level comes from the evidence. Attaching it
    // here means an unclassified tool leaves the field absent rather than defaulted, and the record
    // says "unknown consequence" instead of implying a cheap one.
    let side_effect = match irreversibility_for(c.category) {
        Some(class) => crate::side_effect::SideEffect::asserted(side_effect_asserted)
            .with_irreversibility(class),
        None => crate::side_effect::SideEffect::asserted(side_effect_asserted),
    };
    let mut decision = json!({
        "server": { "id": sanitize(call.server_id), "transport": "mcp" },
        "tool": {
            "name": sanitize(call.tool_name),
            "category": c.category.map(Value::from).unwrap_or(Value::Null)
        },
        "classification": c.state,
        // Machine-readable reason for the classification; downstream never parses prose.
        "reason_code": c.reason_code,
        "action": {
            "class": c.class,
            "verb": c.verb.map(Value::from).unwrap_or(Value::Null),
            "resource_type": c.resource_type.map(Value::from).unwrap_or(Value::Null),
            // The target carries only named, allowlisted fields the classifier projected (sensitive
            // ids hashed under per-field domains); never raw args, never secret material.
            "target": c.target,
            // Static scope this action requires (from the category, not the args). Null when
            // unclassified: the consumer reads that as required_scope_unknown, never "no scope".
            "required_scope": required_scope_for(c.category).map(Value::from).unwrap_or(Value::Null)
        },
        "decision": {
            "effect": call.effect.as_str(),
            "source": "assay-mcp-server",
            "rule_id": call.rule_id.map(sanitize).map(Value::String).unwrap_or(Value::Null),
            "enforced": true
        },
        "response": {
            "status": sanitize(call.status),
            "side_effect_asserted": side_effect_asserted,
            // Kept for compatibility, and now derived from the level rather than hardcoded, so the
            // boolean and the ladder can never disagree. The producer always emits `asserted`;
            // promotion happens downstream and only against evidence (see `side_effect.rs`).
            "side_effect_verified": side_effect.verified_flag(),
            "side_effect": side_effect
        },
        "redaction": {
            "arguments_redacted": true,
            "credential_alias": Value::Null,
            "secret_material_stored": false
        },
        "correlation": correlation(call.traceparent)
    });
    if let Some(detail) = c.detail {
        decision["detail"] = Value::String(detail);
    }
    decision
}

/// Wrap one or more decisions into the full `assay.tool_decision_surface.v0` surface.
pub fn surface(decisions: Vec<Value>) -> Value {
    json!({
        "schema": SCHEMA,
        "observed_tool_decisions": decisions,
        "non_claims": [
            "does not prove SaaS-side persistence without external audit evidence",
            "does not infer tool actions outside observed MCP proxy traffic",
            "does not expose raw secrets or tokens"
        ]
    })
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod irreversibility_producer_tests {
    use super::*;
    use crate::classifier_table::CLASSIFIER_TOOLS;
    use serde_json::json;

    fn decision_for(tool: &str, args: Value) -> Value {
        build_decision(&ObservedCall {
            server_id: "github",
            tool_name: tool,
            args: &args,
            effect: Effect::Allow,
            status: "success",
            rule_id: None,
            traceparent: None,
        })
    }

    #[test]
    fn a_classified_action_carries_its_consequence() {
        let d = decision_for(
            "github.add_deploy_key",
            json!({"owner": "org", "repo": "prod-repo", "title": "ci"}),
        );
        assert_eq!(
            d["response"]["side_effect"]["irreversibility_class"],
            json!("one_way_consequential")
        );
    }

    #[test]
    fn an_unclassified_tool_leaves_the_field_absent_not_cheap() {
        // The rule this producer exists to honour. An unrecognised tool is unknown consequence, and
        // must not serialise as two_way — that would let anything the classifier does not know about
        // read as harmless.
        let d = decision_for("some.unknown_tool", json!({}));
        assert_eq!(
            d["tool"]["category"],
            Value::Null,
            "precondition: unclassified"
        );
        assert!(
            d["response"]["side_effect"]
                .get("irreversibility_class")
                .is_none(),
            "unclassified must omit the field, got {}",
            d["response"]["side_effect"]
        );
    }

    #[test]
    fn consequence_is_attached_even_when_the_call_was_blocked() {
        // The class describes the action, not the outcome. A blocked call still has a consequence
        // class, and a consumer auditing "what would have happened" needs it. `asserted` is what
        // varies with the outcome.
        let d = build_decision(&ObservedCall {
            server_id: "github",
            tool_name: "github.add_deploy_key",
            args: &json!({"owner": "org", "repo": "prod-repo"}),
            effect: Effect::Deny,
            status: "blocked",
            rule_id: Some("r1"),
            traceparent: None,
        });
        assert_eq!(d["response"]["side_effect"]["asserted"], json!(false));
        assert_eq!(
            d["response"]["side_effect"]["irreversibility_class"],
            json!("one_way_consequential")
        );
    }

    #[test]
    fn the_table_covers_exactly_the_categories_that_have_a_required_scope() {
        // Both tables are keyed on the same category vocabulary, so a category with a declared scope
        // and no declared consequence is an omission rather than a decision. This catches the next
        // category being added to one table and not the other. The category list itself derives
        // from CLASSIFIER_TOOLS, so a new classifier category joins this check automatically.
        let mut cats: Vec<&str> = CLASSIFIER_TOOLS.iter().map(|t| t.category).collect();
        cats.sort();
        cats.dedup();
        assert!(!cats.is_empty());
        for cat in cats {
            assert!(
                required_scope_for(Some(cat)).is_some(),
                "{cat} lost its scope"
            );
            assert!(
                irreversibility_for(Some(cat)).is_some(),
                "{cat} has a required scope but no consequence class"
            );
        }
        assert!(irreversibility_for(None).is_none());
        assert!(irreversibility_for(Some("not_a_category")).is_none());
    }
}
