use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema, Default)]
pub struct ListVaultsParams {}
