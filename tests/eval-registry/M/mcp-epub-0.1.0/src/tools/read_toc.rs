use crate::cache::EpubCache;
use crate::epub::toc;
use crate::epub::types::TocEntry;
use crate::EpubError;

pub fn read_epub_toc(cache: &EpubCache, file_path: &str) -> Result<Vec<TocEntry>, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    let extract_dir = entry.extract_dir.path().to_path_buf();
    let entries = toc::parse_toc(&extract_dir, &entry.opf_path)?;
    Ok(entries)
}
