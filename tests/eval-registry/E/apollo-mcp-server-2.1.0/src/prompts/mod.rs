pub(crate) mod prompt_file;

pub(crate) use prompt_file::{PromptFile, load_from_path};
