//! Notes as resources (`notes://<handle>/<id>`) and a summarising prompt.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use pmcp::types::{
    Content, GetPromptResult, ListResourcesResult, PromptMessage, ReadResourceResult, ResourceInfo,
};
use pmcp::{Error, ErrorCode, PromptHandler, RequestHandlerExtra, ResourceHandler};

use crate::store::Store;

pub struct NoteResources {
    store: Arc<Store>,
}

impl NoteResources {
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

#[async_trait]
impl ResourceHandler for NoteResources {
    async fn read(&self, uri: &str, _extra: RequestHandlerExtra) -> pmcp::Result<ReadResourceResult> {
        let Some(rest) = uri.strip_prefix("notes://") else {
            return Err(Error::invalid_params(format!(
                "unsupported URI {uri}; expected notes://<handle>/<note id>"
            )));
        };
        let (handle, id) = rest
            .split_once('/')
            .ok_or_else(|| Error::invalid_params(format!("malformed note URI {uri}")))?;
        let id: u32 = id
            .parse()
            .map_err(|_| Error::invalid_params(format!("note id in {uri} is not a number")))?;
        let map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("notebook store lock poisoned"))?;
        let note = map
            .get(handle)
            .and_then(|nb| nb.notes.iter().find(|n| n.id == id));
        match note {
            Some(n) => Ok(ReadResourceResult::new(vec![Content::text(format!(
                "# {}\n\n{}",
                n.title, n.body
            ))])),
            None => Err(Error::protocol(
                ErrorCode::other(-32002),
                format!("note {uri} not found"),
            )),
        }
    }

    async fn list(
        &self,
        _cursor: Option<String>,
        _extra: RequestHandlerExtra,
    ) -> pmcp::Result<ListResourcesResult> {
        let map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("notebook store lock poisoned"))?;
        let resources = map
            .iter()
            .flat_map(|(handle, nb)| {
                nb.notes.iter().map(move |n| {
                    ResourceInfo::new(format!("notes://{handle}/{}", n.id), n.title.clone())
                        .with_mime_type("text/markdown")
                })
            })
            .collect();
        Ok(ListResourcesResult::new(resources))
    }
}

pub struct SummarizePrompt {
    store: Arc<Store>,
}

impl SummarizePrompt {
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

#[async_trait]
impl PromptHandler for SummarizePrompt {
    async fn handle(
        &self,
        args: HashMap<String, String>,
        _extra: RequestHandlerExtra,
    ) -> pmcp::Result<GetPromptResult> {
        let Some(handle) = args.get("handle") else {
            return Err(Error::invalid_params("argument `handle` is required"));
        };
        let map = self
            .store
            .notebooks
            .lock()
            .map_err(|_| Error::internal("Something went wrong"))?;
        let Some(nb) = map.get(handle) else {
            return Err(Error::invalid_params(format!(
                "notebook handle {handle} has expired or never existed"
            )));
        };
        let body = nb.render();
        Ok(GetPromptResult::new(
            vec![PromptMessage::user(Content::text(format!(
                "Summarise these notes in five bullet points:\n\n{body}"
            )))],
            Some(format!("Summary of {}", nb.path.display())),
        ))
    }
}
