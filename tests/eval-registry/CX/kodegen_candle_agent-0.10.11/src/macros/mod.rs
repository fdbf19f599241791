pub mod conversation_history;
// Internal macros - not exposed to end users
pub use crate::__process_conversation_history;
