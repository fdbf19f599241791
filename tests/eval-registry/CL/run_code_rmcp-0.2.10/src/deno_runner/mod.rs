mod common_runner;
mod js_runner;
mod ts_runner;

pub use js_runner::JsRunner;
pub use ts_runner::TsRunner;
