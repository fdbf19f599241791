pub(crate) mod error_mapping;
pub(crate) mod macros;
pub(crate) mod model_read;
pub(crate) mod parsers;
pub(crate) mod resolvers;
pub(crate) mod serialization;

pub(crate) use error_mapping::{
    core_err_to_mcp, kanban_err_to_mcp, mcp_enrich_add_error, mcp_enrich_remove_error,
};
pub(crate) use macros::{locked_read, locked_write};
pub(crate) use parsers::{
    parse_archived_selector, parse_board_sort_field, parse_datetime, parse_priority,
    parse_sort_field, parse_sort_order, parse_status,
};
pub(crate) use resolvers::{board_head, card_board, project_committed_sprint, resolve_summaries};
pub(crate) use serialization::{to_call_tool_result, to_call_tool_result_json};
