use cnb_api::error::ApiError;

#[allow(clippy::needless_pass_by_value)]
pub(crate) fn api_err(err: ApiError) -> String {
    err.to_string()
}
