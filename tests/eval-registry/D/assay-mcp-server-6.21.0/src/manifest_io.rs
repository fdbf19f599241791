use anyhow::{bail, Context, Result};
use assay_common::atomic_write::write_new;
use assay_common::limits::{LimitKind, LimitReader};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

pub const MAX_MANIFEST_BYTES: usize = 1024 * 1024;

pub fn read_bounded_bytes(path: &Path) -> Result<Vec<u8>> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut bytes = Vec::new();
    LimitReader::new(file, MAX_MANIFEST_BYTES as u64, LimitKind::SourceBytes)
        .read_to_end(&mut bytes)
        .with_context(|| {
            format!(
                "reading {} within the {}-byte manifest limit",
                path.display(),
                MAX_MANIFEST_BYTES
            )
        })?;
    Ok(bytes)
}

pub fn write_json_create_new(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    if bytes.len() > MAX_MANIFEST_BYTES {
        bail!(
            "serialized output for {} exceeds the {}-byte manifest limit",
            path.display(),
            MAX_MANIFEST_BYTES
        );
    }

    let parent = usable_parent(path);
    let file_name = path
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| anyhow::anyhow!("{} must end with a UTF-8 file name", path.display()))?;
    write_new(&parent, file_name, &bytes)
        .map(|_| ())
        .with_context(|| {
            format!(
                "creating {} without overwriting an existing file",
                path.display()
            )
        })?;
    Ok(())
}

fn usable_parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use assay_common::limits::LimitExceeded;
    use serde_json::json;

    #[test]
    fn json_exactly_at_the_limit_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("exact.json");
        let empty = serde_json::to_vec_pretty(&json!({"payload": ""})).unwrap();
        let payload_len = MAX_MANIFEST_BYTES - empty.len() - 1;
        let value = json!({"payload": "x".repeat(payload_len)});

        write_json_create_new(&out, &value).expect("the inclusive limit must be accepted");
        assert_eq!(
            std::fs::metadata(out).unwrap().len(),
            MAX_MANIFEST_BYTES as u64
        );
    }

    #[test]
    fn oversized_json_is_rejected_without_output_or_temp_residue() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("too-large.json");
        let value = json!({"payload": "x".repeat(MAX_MANIFEST_BYTES)});

        let error = write_json_create_new(&out, &value)
            .expect_err("an output above the shared manifest limit must fail");
        assert!(error.to_string().contains("manifest limit"));
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn oversized_read_preserves_the_shared_typed_limit_cause() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("oversized.json");
        std::fs::write(&input, vec![b'x'; MAX_MANIFEST_BYTES + 1]).unwrap();

        let error = read_bounded_bytes(&input)
            .expect_err("an oversized manifest must fail through LimitReader");
        assert!(
            error.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .and_then(LimitExceeded::from_io)
                    .is_some()
            }),
            "manifest limit failure lost its typed LimitExceeded cause: {error:#}"
        );
    }
}
