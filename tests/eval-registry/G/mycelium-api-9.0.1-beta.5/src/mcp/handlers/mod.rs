mod call_tool;
mod initialize;
pub(crate) mod list_tools;

pub(crate) use call_tool::handle_call_tool;
pub(crate) use initialize::handle_initialize;
pub(crate) use list_tools::handle_list_tools;
