pub fn supported_extensions() -> Vec<&'static str> {
    vec!["docx", "doc", "xlsx", "xls", "pptx", "ppt"]
}
