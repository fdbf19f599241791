//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// Failures of a pmcp tool that are not the tool's own, written as pmcp 2.23's examples write
// them (s47_v2_stateless_mrtr, s54_v2_dual_conformance); -32603 or a protocol error is right:
// - a sampling round trip to the client through the peer the request context hands out
//   (`let peer = extra.peer()..?; peer.sample(..)`): the peer is the request's, not the tool's;
// - an MRTR retry whose answers, read from the request context by a crate fn
//   (`answered_city(&extra)`), are not usable: a response of the wrong kind;
// - sealing the handler's own MRTR state (`MrtrSignal::into_meta_entry` is `serde_json::to_value`
//   of the server's own values).
// The same handlers failing on their own arguments are still reported.
use async_trait::async_trait;
use pmcp::types::mrtr::{InputResponse, MrtrSignal};
use pmcp::types::sampling::CreateMessageParams;
use pmcp::{RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

struct Summarise;

#[async_trait]
impl ToolHandler for Summarise {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
        if text.len() > 10_000 {
            return Err(pmcp::Error::internal(format!("text of {} bytes: at most 10000", text.len()))); //~ tool_failure_as_protocol_error
        }
        let peer = extra
            .peer()
            .ok_or_else(|| pmcp::Error::internal("no server->client channel on this transport"))?;
        let response = peer
            .sample(params(text))
            .await
            .map_err(|error| pmcp::Error::internal(error.to_string()))?;
        Ok(json!({ "summary": format!("{:?}", response.content) }))
    }
}

fn params(text: &str) -> CreateMessageParams {
    unimplemented!("{text}")
}

struct Weather;

#[async_trait]
impl ToolHandler for Weather {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        if extra.mrtr_continuation().is_some() {
            let Some(city) = answered_city(&extra) else {
                return Err(pmcp::Error::validation(
                    "the retry carried a valid requestState but no usable city answer",
                ));
            };
            return Ok(json!({ "city": city }));
        }
        if args.get("units").is_some_and(|u| u != "metric" && u != "imperial") {
            return Err(pmcp::Error::internal("units must be metric or imperial")); //~ tool_failure_as_protocol_error
        }
        let signal = MrtrSignal {
            input_requests: Default::default(),
            continuation: json!({ "units": "metric" }),
        };
        let (key, value) = signal
            .into_meta_entry()
            .map_err(|error| pmcp::Error::internal(error.to_string()))?;
        let mut meta = serde_json::Map::new();
        meta.insert(key, value);
        extra.set_result_meta(meta);
        Ok(json!({ "status": "which city?" }))
    }
}

fn answered_city(extra: &RequestHandlerExtra) -> Option<String> {
    let InputResponse::Elicitation(result) = extra.input_responses()?.get("city")? else {
        return None;
    };
    Some(format!("{result:?}"))
}

fn main() {}
