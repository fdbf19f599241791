pub const SHUTTLE_DOCS_SEARCH_BASE_URL: &str =
    "https://09ga7allme.execute-api.eu-west-2.amazonaws.com/prod";
