use moka::future::Cache;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone)]
pub struct AppCache {
    pub nav: Arc<Cache<String, String>>,
    pub docs: Arc<Cache<String, String>>,
}

impl AppCache {
    pub fn new() -> Self {
        Self {
            nav: Arc::new(
                Cache::builder()
                    .max_capacity(20)
                    .time_to_live(Duration::from_secs(3600))
                    .build(),
            ),
            docs: Arc::new(
                Cache::builder()
                    .max_capacity(500)
                    .time_to_live(Duration::from_secs(1800))
                    .build(),
            ),
        }
    }
}
