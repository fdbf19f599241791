use std::sync::Arc;

use cnb_api::client::CnbClient;

#[derive(Clone)]
pub struct CnbMcpServer {
    pub(crate) client: Arc<CnbClient>,
}

impl CnbMcpServer {
    #[must_use]
    pub fn new(client: CnbClient) -> Self {
        Self {
            client: Arc::new(client),
        }
    }
}
