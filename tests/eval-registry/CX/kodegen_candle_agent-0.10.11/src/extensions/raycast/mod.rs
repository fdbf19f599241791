pub mod discovery;
pub mod executor;
pub mod parser;

pub use discovery::{
    CommandMode, RaycastCommand, RaycastExtension, discover_extensions, discover_script_commands,
};
pub use executor::{CommandOutput, execute_script_command};
pub use parser::{RaycastIcon, RaycastItem, RaycastResult, parse_json_output, parse_text_output};
