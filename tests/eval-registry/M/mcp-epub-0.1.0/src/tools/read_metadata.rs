use crate::cache::EpubCache;
use crate::epub::metadata;
use crate::epub::types::EpubMetadata;
use crate::EpubError;

pub fn read_epub_metadata(cache: &EpubCache, file_path: &str) -> Result<EpubMetadata, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    let metadata = metadata::parse_metadata(&entry.opf_path)?;
    Ok(metadata)
}
