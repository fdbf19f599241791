mod code_run_model;
mod tool_params;

pub use code_run_model::{
    CodeExecutor, CodeScriptExecutionResult, CommandExecutor, LanguageScript, ParamsTempFile,
    RunCode, run_command_with_timeout,
};
#[allow(unused_imports)]
pub use tool_params::RunCodeHttpResult;
