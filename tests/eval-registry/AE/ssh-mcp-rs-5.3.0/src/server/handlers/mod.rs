pub mod apply_patch;
pub mod check_process;
pub mod file_edit_common;
