//! `assay.token_passthrough_conformance.v0` (MCP01a-3) — credential-boundary conformance.
//!
//! The confused-deputy invariant: only a component that **consumes** inbound auth can leak that
//! consumed credential as a passthrough. The standalone stdio server consumes no authentication
//! field. This carrier reports that boundary explicitly and retains the value-sentinel checks as
//! negative evidence against accidental re-emission on Assay-originated outbound surfaces.
//!
//! The transparent stdio relay (`proxy::run`) is explicitly OUT of scope: it consumes no inbound
//! auth, originates no outbound HTTP with it, and injects no child env, so its verbatim JSON-RPC
//! forwarding is relay behaviour, not consumed-token passthrough. This is recorded, never "proven safe
//! by stripping". No strip/sanitize/abort path is built for a leak the current topology cannot
//! produce; the value-sentinel proof lives in `tests/no_passthrough_e2e.rs`.

use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "assay.token_passthrough_conformance.v0";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ProbedSource {
    pub source: String,
    /// Always true: a known inbound-credential location the boundary watches.
    pub probed: bool,
    /// True only where the tested topology actually validates this field as authentication. The
    /// standalone stdio server has no transport-authentication mechanism, so every source is false.
    pub consumed: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OutboundChannel {
    pub channel: String,
    pub checked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<bool>,
    pub leak_count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TransparentRelay {
    pub in_scope: bool,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TokenPassthroughConformance {
    pub schema: String,
    pub topology: String,
    pub probed_inbound_auth_sources: Vec<ProbedSource>,
    pub outbound_channels: Vec<OutboundChannel>,
    pub transparent_relay: TransparentRelay,
    pub non_claims: Vec<String>,
}

/// Does the EXACT inbound sentinel value appear on a captured outbound surface? Value-exact on
/// purpose: an arbitrary credential-shaped payload with a different value is not a leak (the negative
/// control), so this never becomes a payload sanitizer.
pub fn value_leaks(inbound_value: &str, outbound_surface: &str) -> bool {
    !inbound_value.is_empty() && outbound_surface.contains(inbound_value)
}

fn source(s: &str, consumed: bool) -> ProbedSource {
    ProbedSource {
        source: s.to_string(),
        probed: true,
        consumed,
    }
}

/// The conformance report for the standalone stdio topology. `transport_header` and `json_body` are
/// checked by the value-sentinel e2e; `environment` is `not_applicable` because the standalone server
/// spawns no child. The out-of-scope transparent relay spawns a child but does not interpret relayed
/// initialize fields as Assay authentication or identity.
///
/// The historical function name remains for source compatibility; the returned topology names the
/// corrected non-consuming boundary.
pub fn consuming_path_conformance() -> TokenPassthroughConformance {
    TokenPassthroughConformance {
        schema: SCHEMA.to_string(),
        topology: "standalone_stdio_non_consuming".to_string(),
        probed_inbound_auth_sources: vec![
            source("http.authorization", false),
            source("http.cookie", false),
            source("http.x_api_key", false),
            source("initialize.params.authorization", false),
            source(
                "initialize.params.initializationOptions.authorization",
                false,
            ),
        ],
        outbound_channels: vec![
            OutboundChannel {
                channel: "transport_header".to_string(),
                checked: true,
                not_applicable: None,
                leak_count: 0,
                pass: Some(true),
            },
            OutboundChannel {
                channel: "json_body".to_string(),
                checked: true,
                not_applicable: None,
                leak_count: 0,
                pass: Some(true),
            },
            OutboundChannel {
                channel: "environment".to_string(),
                checked: false,
                not_applicable: Some(true),
                leak_count: 0,
                pass: None,
            },
        ],
        transparent_relay: TransparentRelay {
            in_scope: false,
            reason:
                "relay path does not consume inbound auth; verbatim JSON-RPC forwarding is relay \
                     behaviour, not consumed-token passthrough"
                    .to_string(),
        },
        non_claims: vec![
            "standalone stdio does not authenticate initialize fields".to_string(),
            "probed http.* header sources are an outbound-forbidden denylist, not evidence of an \
             HTTP transport or inbound authentication mechanism"
                .to_string(),
            "does not scrub arbitrary credential-shaped user payload".to_string(),
            "transparent relay forwarding is not treated as a confused-deputy leak when the relay \
             does not consume the credential"
                .to_string(),
            "does not verify provider token grants".to_string(),
            "does not manage token lifecycle, rotation, or vaulting".to_string(),
        ],
    }
}

/// A report is clean when every outbound channel either is `not_applicable` or was checked with zero
/// leaks and `pass`. An unchecked, applicable channel is never silently clean.
pub fn is_clean(report: &TokenPassthroughConformance) -> bool {
    report.schema == SCHEMA
        && !report.outbound_channels.is_empty()
        && report.outbound_channels.iter().all(|c| {
            if c.not_applicable == Some(true) {
                true
            } else {
                c.checked && c.leak_count == 0 && c.pass == Some(true)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_leak_is_exact_not_shape_based() {
        let inbound_sentinel = "Bearer INBOUND_TOKEN_NEVER_FORWARD";
        // The exact inbound sentinel on an outbound surface is a leak.
        assert!(value_leaks(
            inbound_sentinel,
            "x-fwd: Bearer INBOUND_TOKEN_NEVER_FORWARD"
        ));
        // Negative control: a different credential-shaped value is NOT a leak (not a sanitizer).
        assert!(!value_leaks(
            inbound_sentinel,
            r#"{"authorization":"not-the-inbound-sentinel"}"#
        ));
        assert!(!value_leaks("", "anything"));
    }

    #[test]
    fn consuming_path_report_is_clean_and_value_free() {
        let report = consuming_path_conformance();
        assert!(is_clean(&report));
        // env is not_applicable (standalone stdio spawns nothing), not a fake pass.
        let env = report
            .outbound_channels
            .iter()
            .find(|c| c.channel == "environment")
            .unwrap();
        assert_eq!(env.not_applicable, Some(true));
        assert!(!env.checked);
        // value-free: no token values anywhere in the serialized carrier.
        let blob = serde_json::to_string(&report).unwrap();
        assert!(!blob.contains("NEVER_FORWARD") && !blob.contains("Bearer "));
        assert_eq!(report.topology, "standalone_stdio_non_consuming");
        // Every source is probed, and none is promoted into authentication or identity.
        assert!(report.probed_inbound_auth_sources.iter().all(|s| s.probed));
        assert!(report
            .probed_inbound_auth_sources
            .iter()
            .all(|source| !source.consumed));
    }

    #[test]
    fn transparent_relay_is_recorded_out_of_scope() {
        // Negative control 2: the transparent relay is explicitly out of the confused-deputy frame,
        // never counted as a leak surface.
        let report = consuming_path_conformance();
        assert!(!report.transparent_relay.in_scope);
        assert!(report.transparent_relay.reason.contains("does not consume"));
    }

    #[test]
    fn an_unchecked_applicable_channel_is_not_clean() {
        let mut report = consuming_path_conformance();
        report.outbound_channels.push(OutboundChannel {
            channel: "future_surface".to_string(),
            checked: false,
            not_applicable: None,
            leak_count: 0,
            pass: None,
        });
        assert!(!is_clean(&report));
    }
}
