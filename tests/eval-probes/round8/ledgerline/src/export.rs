//! Writes journal exports as CSV files under the configured directory.

use std::path::{Component, Path, PathBuf};

use tokio::io::AsyncWriteExt;

use crate::args::format_cents;
use crate::error::{LedgerError, LedgerResult};
use crate::store::Transaction;

/// Resolve the file name the caller asked for inside the export directory.
pub fn resolve_target(dir: &Path, file_name: &str) -> LedgerResult<PathBuf> {
    let candidate = Path::new(file_name);
    let escapes = candidate
        .components()
        .any(|c| !matches!(c, Component::Normal(_)));
    if escapes || file_name.is_empty() {
        return Err(LedgerError::validation(format!(
            "file name '{file_name}' must be a plain relative name inside the export directory"
        )));
    }
    if candidate.extension().and_then(|e| e.to_str()) != Some("csv") {
        return Err(LedgerError::validation(format!(
            "file name '{file_name}' must end in .csv"
        )));
    }
    Ok(dir.join(candidate))
}

/// Write one CSV line per posting. Returns the number of lines written.
pub async fn write_csv(target: &Path, journal: &[Transaction]) -> LedgerResult<usize> {
    let mut file = tokio::fs::File::create(target).await?;
    file.write_all(b"transaction,date,account,amount,memo,voided\n").await?;
    let mut lines = 0;
    for txn in journal {
        for posting in &txn.postings {
            let line = format!(
                "{},{},{},{},{:?},{}\n",
                txn.id,
                txn.date,
                posting.account,
                format_cents(posting.amount_cents),
                txn.memo,
                txn.voided.is_some()
            );
            file.write_all(line.as_bytes()).await?;
            lines += 1;
        }
    }
    file.flush().await?;
    Ok(lines)
}
