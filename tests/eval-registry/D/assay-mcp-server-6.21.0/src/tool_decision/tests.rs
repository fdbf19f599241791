use super::*;
use crate::classifier_table::{
    classifier_complete_args, classifier_complete_args_with_optionals, classifier_incomplete_args,
    CLASSIFIER_TOOLS, REFLECTED_TARGET_FIELDS,
};

fn call<'a>(tool: &'a str, args: &'a Value, effect: Effect, status: &'a str) -> ObservedCall<'a> {
    ObservedCall {
        server_id: "github",
        tool_name: tool,
        args,
        effect,
        status,
        rule_id: Some("r1"),
        traceparent: None,
    }
}

fn call_with_traceparent<'a>(args: &'a Value, traceparent: Option<&'a str>) -> ObservedCall<'a> {
    ObservedCall {
        traceparent,
        ..call("github.add_deploy_key", args, Effect::Allow, "success")
    }
}

#[test]
fn valid_traceparent_is_retained_and_typed_as_propagated() {
    let a = json!({});
    let tp = "00-11111111111111111111111111111111-aaaaaaaaaaaaaaa1-01";
    let d = build_decision(&call_with_traceparent(&a, Some(tp)));
    assert_eq!(d["correlation"]["basis"], json!("propagated_trace_context"));
    assert_eq!(d["correlation"]["traceparent"], json!(tp));
    assert_eq!(d["correlation"]["source_class"], json!("propagated"));
}

#[test]
fn absent_traceparent_is_typed_none_never_silent() {
    let a = json!({});
    let d = build_decision(&call_with_traceparent(&a, None));
    assert_eq!(d["correlation"]["basis"], json!("none"));
    assert_eq!(d["correlation"]["traceparent"], json!(null));
    assert_eq!(d["correlation"]["source_class"], json!(null));
}

#[test]
fn malformed_traceparent_is_typed_distinctly_and_not_retained() {
    let a = json!({});
    for bad in [
        "not-a-traceparent",
        "00-11111111111111111111111111111111-aaaaaaaaaaaaaaa1", // missing flags
        "00-zzzz1111111111111111111111111111-aaaaaaaaaaaaaaa1-01", // non-hex
        "00-00000000000000000000000000000000-aaaaaaaaaaaaaaa1-01", // all-zero trace-id
        "00-11111111111111111111111111111111-0000000000000000-01", // all-zero parent-id
        "00-1111\u{1b}]8;;evil\u{7}-aaaaaaaaaaaaaaa1-01",       // hostile bytes
        "ff-11111111111111111111111111111111-aaaaaaaaaaaaaaa1-01", // version ff forbidden by W3C
        "", // present-but-non-string carrier is extracted as "" and must land here, not in "none"
    ] {
        let d = build_decision(&call_with_traceparent(&a, Some(bad)));
        assert_eq!(
            d["correlation"]["basis"],
            json!("malformed_trace_context"),
            "{bad}"
        );
        assert_eq!(d["correlation"]["traceparent"], json!(null), "{bad}");
        assert_eq!(d["correlation"]["source_class"], json!(null), "{bad}");
    }
}

#[test]
fn traceparent_extraction_distinguishes_absent_from_non_string() {
    let valid = "00-11111111111111111111111111111111-aaaaaaaaaaaaaaa1-01";
    let with = json!({"name": "t", "_meta": {"traceparent": valid}});
    assert_eq!(traceparent_from_params(&with), Some(valid));
    // A present-but-non-string carrier is a malformed carrier, not an absent one.
    let non_string = json!({"name": "t", "_meta": {"traceparent": 42}});
    assert_eq!(traceparent_from_params(&non_string), Some(""));
    let absent = json!({"name": "t"});
    assert_eq!(traceparent_from_params(&absent), None);
    let meta_not_object = json!({"name": "t", "_meta": 7});
    assert_eq!(traceparent_from_params(&meta_not_object), None);
}

#[test]
fn allowed_success_asserts_but_never_verifies_the_side_effect() {
    let a = json!({});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Allow, "success"));
    assert_eq!(d["response"]["side_effect_asserted"], json!(true));
    assert_eq!(d["response"]["side_effect_verified"], json!(false));
}

#[test]
fn denied_call_asserts_no_side_effect() {
    let a = json!({"owner": "org", "repo": "prod-repo"});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Deny, "blocked"));
    assert_eq!(d["response"]["side_effect_asserted"], json!(false));
    assert_eq!(d["response"]["side_effect_verified"], json!(false));
}

#[test]
fn unclassified_tool_is_observed_unknown_never_clean() {
    let a = json!({});
    let d = build_decision(&call("misc.do_thing", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("observed_unknown_tool"));
    assert_eq!(d["reason_code"], json!("unknown_tool_name"));
    assert_eq!(d["action"]["class"], json!("unclassified"));
}

#[test]
fn hostile_strings_are_sanitized() {
    let a = json!({});
    let hostile = "tool\u{1b}[31m\u{0000}";
    let d = build_decision(&call(hostile, &a, Effect::Allow, "success"));
    let name = d["tool"]["name"].as_str().unwrap();
    assert!(
        !name.contains('\u{1b}') && !name.contains('\u{0000}'),
        "control chars sanitized"
    );
    assert!(name.contains('\u{FFFD}'));
}

#[test]
fn surface_carries_schema_and_non_claims() {
    let a = json!({});
    let s = surface(vec![build_decision(&call(
        "t",
        &a,
        Effect::Allow,
        "success",
    ))]);
    assert_eq!(s["schema"], json!(SCHEMA));
    assert!(s["non_claims"]
        .as_array()
        .map(|a| !a.is_empty())
        .unwrap_or(false));
    assert_eq!(s["observed_tool_decisions"].as_array().unwrap().len(), 1);
}

#[test]
fn github_deploy_key_classified_projects_owner_repo_and_hashed_title() {
    let a = json!({"owner": "org", "repo": "prod-repo", "title": "ci-key", "read_only": true,
                   "public_key": "ssh-ed25519 AAAA...", "token": "ghp_secret"});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified"));
    assert_eq!(d["reason_code"], json!("classified_github_deploy_key"));
    assert_eq!(d["tool"]["category"], json!("github_deploy_key"));
    let t = &d["action"]["target"];
    assert_eq!(t["owner"], json!("org"));
    assert_eq!(t["repo"], json!("prod-repo"));
    assert_eq!(t["read_only"], json!(true));
    assert_eq!(
        t["key_title_hash"],
        json!(target_hash("github_key_title", "ci-key"))
    );

    let text = serde_json::to_string(&d).unwrap();
    assert!(
        observed_secret_arg(&a),
        "fixture must include a secret-like arg"
    );
    for raw in ["ssh-ed25519", "AAAA", "ghp_secret", "ci-key"] {
        assert!(
            !text.contains(raw),
            "raw value {raw} must not appear in the record"
        );
    }
}

#[test]
fn github_deploy_key_missing_repo_is_incomplete() {
    let a = json!({"owner": "org"});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified_incomplete"));
    assert_eq!(d["reason_code"], json!("missing_required_target_field"));
    assert_eq!(d["detail"], json!("missing_github_owner_or_repo"));
    assert_eq!(d["action"]["target"]["owner"], json!("org"));
    assert!(d["action"]["target"].get("repo").is_none());
}

#[test]
fn slack_add_member_classified_hashes_all_ids() {
    let a = json!({"workspace_id": "T0123", "channel_id": "C0123", "user": "alice@example.com"});
    let d = build_decision(&call("slack.add_member", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified"));
    assert_eq!(d["reason_code"], json!("classified_slack_add_member"));
    assert_eq!(d["action"]["resource_type"], json!("workspace_member"));
    let t = &d["action"]["target"];
    assert_eq!(
        t["workspace_id_hash"],
        json!(target_hash("slack_workspace", "T0123"))
    );
    assert_eq!(
        t["channel_id_hash"],
        json!(target_hash("slack_channel", "C0123"))
    );
    assert_eq!(
        t["principal_hash"],
        json!(target_hash("slack_principal", "alice@example.com"))
    );
    let text = serde_json::to_string(&d).unwrap();
    assert!(
        !text.contains("alice@example.com"),
        "raw email must not appear"
    );
}

#[test]
fn slack_workspace_level_membership_has_null_channel() {
    let a = json!({"workspace_id": "T0123", "user_id": "U999"});
    let d = build_decision(&call("slack.add_member", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified"));
    assert_eq!(d["action"]["target"]["channel_id_hash"], json!(null));
}

#[test]
fn slack_missing_principal_is_incomplete() {
    let a = json!({"workspace_id": "T0123"});
    let d = build_decision(&call("slack.add_member", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified_incomplete"));
    assert_eq!(d["detail"], json!("missing_slack_principal"));
}

#[test]
fn workspace_admin_classified_hashes_workspace_and_principal() {
    let a = json!({"workspace_id": "acme", "principal": "bob@example.com", "role": "admin"});
    let d = build_decision(&call("workspace.grant_admin", &a, Effect::Allow, "success"));
    assert_eq!(d["classification"], json!("classified"));
    assert_eq!(d["reason_code"], json!("classified_workspace_admin"));
    assert_eq!(d["action"]["resource_type"], json!("workspace_role"));
    let t = &d["action"]["target"];
    assert_eq!(
        t["workspace_id_hash"],
        json!(target_hash("workspace", "acme"))
    );
    assert_eq!(
        t["principal_hash"],
        json!(target_hash("workspace_principal", "bob@example.com"))
    );
    assert_eq!(t["role"], json!("admin"));
}

#[test]
fn required_scope_is_derived_from_category_not_args() {
    let gh = build_decision(&call(
        "github.add_deploy_key",
        &json!({"owner": "org", "repo": "r"}),
        Effect::Allow,
        "success",
    ));
    assert_eq!(
        gh["action"]["required_scope"],
        json!("repo:deploy_key:write")
    );

    let sl = build_decision(&call(
        "slack.add_member",
        &json!({"workspace_id": "T", "user_id": "U"}),
        Effect::Allow,
        "success",
    ));
    assert_eq!(
        sl["action"]["required_scope"],
        json!("conversations:members:write")
    );

    let wa = build_decision(&call(
        "workspace.grant_admin",
        &json!({"workspace_id": "a", "principal": "p"}),
        Effect::Allow,
        "success",
    ));
    assert_eq!(wa["action"]["required_scope"], json!("workspace:admin"));

    let unk = build_decision(&call("misc.do_thing", &json!({}), Effect::Allow, "success"));
    assert_eq!(unk["action"]["required_scope"], Value::Null);
}

#[test]
fn workspace_admin_unknown_verb_is_observed_unknown() {
    let a = json!({"workspace_id": "acme", "principal": "x"});
    let d = build_decision(&call(
        "workspace.do_random_thing",
        &a,
        Effect::Allow,
        "success",
    ));
    assert_eq!(d["classification"], json!("observed_unknown_tool"));
    assert_eq!(d["reason_code"], json!("unknown_tool_name"));
}

#[test]
fn hashes_are_domain_separated() {
    assert_ne!(
        target_hash("slack_principal", "alice@example.com"),
        target_hash("workspace_principal", "alice@example.com")
    );
}

#[test]
fn extra_and_secret_args_are_ignored_not_copied() {
    let a = json!({"owner": "org", "repo": "r", "junk": "ignore-me", "api_key": "sk-xyz"});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Allow, "success"));
    let t = &d["action"]["target"];
    let keys: Vec<&str> = t.as_object().unwrap().keys().map(|s| s.as_str()).collect();
    for k in &keys {
        assert!(
            ["provider", "owner", "repo", "key_title_hash", "read_only"].contains(k),
            "unexpected target field {k}"
        );
    }
    let text = serde_json::to_string(&d).unwrap();
    assert!(!text.contains("ignore-me") && !text.contains("sk-xyz"));
}

#[test]
fn classifier_matrix_agrees_with_classify_in_both_states() {
    // The parity pin for CLASSIFIER_TOOLS: every table row must really classify (with complete
    // args) and really go incomplete (with incomplete args), carrying the row's own
    // category/verb/resource_type. A row added to the table without classifier support — or
    // classifier support added without a row — fails here, so the claims-scan matrix that
    // iterates the table cannot silently miss a value the record can carry.
    for entry in CLASSIFIER_TOOLS {
        let tool = format!("matrix.{}", entry.leaf);
        let full = classify(&tool, &classifier_complete_args(entry.category));
        assert_eq!(full.state, "classified", "{}", entry.leaf);
        assert_eq!(full.category, Some(entry.category), "{}", entry.leaf);
        assert_eq!(full.verb, Some(entry.verb), "{}", entry.leaf);
        assert_eq!(
            full.resource_type,
            Some(entry.resource_type),
            "{}",
            entry.leaf
        );
        let partial = classify(&tool, &classifier_incomplete_args(entry.category));
        assert_eq!(partial.state, "classified_incomplete", "{}", entry.leaf);
        assert_eq!(partial.category, Some(entry.category), "{}", entry.leaf);
        assert_eq!(partial.verb, Some(entry.verb), "{}", entry.leaf);
        assert_eq!(
            partial.resource_type,
            Some(entry.resource_type),
            "{}",
            entry.leaf
        );
    }
}

#[test]
fn every_plain_string_target_leaf_is_a_declared_reflected_field() {
    // The excision pin for REFLECTED_TARGET_FIELDS: a complete classification's projected target
    // may carry plain caller strings only under the declared reflected fields. Any other string
    // leaf must be a static provider label or a `*_hash` digest (both Assay-authored, both
    // scanned). A new plain-string projection that is not declared reflected fails here instead
    // of silently entering the scanned document (false positive) or silently joining an
    // excision it does not belong in (hole).
    //
    // Both complete inputs run per row: the plain one AND the with-optionals one. The plain
    // input leaves every optional leaf absent, so without the second input a mutant on an
    // optional path (P2b: a plain `key_title` on the github optional-title path; likewise
    // `role`, `read_only`, a non-null `channel_id_hash`) survives this test. The optional
    // input must still reach `classified` — otherwise the pin would scan an incomplete target
    // and prove nothing about the leaves it exists to pin.
    for entry in CLASSIFIER_TOOLS {
        let tool = format!("matrix.{}", entry.leaf);
        let inputs = [
            classifier_complete_args(entry.category),
            classifier_complete_args_with_optionals(entry.category),
        ];
        for args in &inputs {
            let c = classify(&tool, args);
            assert_eq!(
                c.state, "classified",
                "{}: optional-fields matrix input must still reach classified",
                entry.leaf
            );
            let target = c.target;
            for (key, value) in target.as_object().unwrap() {
                if value.is_string() && !REFLECTED_TARGET_FIELDS.contains(&key.as_str()) {
                    assert!(
                        key == "provider" || key.ends_with("_hash"),
                        "{}: plain-string target leaf `{key}` is neither provider, hash, nor declared reflected",
                        entry.leaf
                    );
                }
            }
        }
    }
}

#[test]
fn the_emitted_decision_carries_the_side_effect_block_at_asserted() {
    // Eb.1 end to end: the producer emits the ladder block, it starts at `asserted`, and the compat
    // boolean is derived from the level rather than hardcoded, so the two cannot disagree.
    let a = json!({});
    let d = build_decision(&call("github.add_deploy_key", &a, Effect::Allow, "success"));
    let se = &d["response"]["side_effect"];
    assert_eq!(se["level"], json!("asserted"));
    assert_eq!(se["asserted"], json!(true));
    assert_eq!(d["response"]["side_effect_verified"], json!(false));
    assert_eq!(
        d["response"]["side_effect_asserted"], se["asserted"],
        "the legacy boolean and the block must agree"
    );
    assert!(
        se.get("verification_source").is_none(),
        "nothing promotes at emit time"
    );
}

#[test]
fn observed_effect_maps_error_allow_and_deny() {
    assert_eq!(
        observed_effect(&json!({
            "allowed": false,
            "error": {"code": "E_POLICY_NOT_FOUND"}
        })),
        (Effect::Error, "E_POLICY_NOT_FOUND".to_string())
    );
    assert_eq!(
        observed_effect(&json!({"allowed": true, "reason": "Allowed by policy"})),
        (Effect::Allow, "success".to_string())
    );
    assert_eq!(
        observed_effect(&json!({"allowed": false, "matches": ["blocked"]})),
        (Effect::Deny, "blocked".to_string())
    );
    assert_eq!(
        observed_effect(&json!({
            "allowed": true,
            "error": {"code": "E_INTERNAL"}
        })),
        (Effect::Error, "E_INTERNAL".to_string())
    );
}
