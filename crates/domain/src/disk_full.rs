//! A full disk, recognised once and said once: every crate that writes files reports it in
//! the same plain words, naming the file but never where the data dir lives.

/// ENOSPC and EDQUOT on Linux, for errors whose kind the standard library does not map.
const NO_SPACE: [i32; 2] = [28, 122];

/// Whether `error` means the disk (or the user's quota) is full.
pub fn is_disk_full(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::StorageFull
        || error.kind() == std::io::ErrorKind::QuotaExceeded
        || error
            .raw_os_error()
            .is_some_and(|code| NO_SPACE.contains(&code))
}

/// What the person is told when `file` could not be written for a full disk.
pub fn disk_full_message(file: &str) -> String {
    format!("磁盘空间不足，无法写入 {file}：请清理数据目录所在的磁盘后重试")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enospc_and_quota_are_a_full_disk_and_other_errors_are_not() {
        assert!(is_disk_full(&std::io::Error::from_raw_os_error(28)));
        assert!(is_disk_full(&std::io::Error::from_raw_os_error(122)));
        assert!(is_disk_full(&std::io::Error::from(
            std::io::ErrorKind::StorageFull
        )));
        assert!(!is_disk_full(&std::io::Error::from_raw_os_error(13)));
        assert_eq!(
            disk_full_message("a.csv"),
            "磁盘空间不足，无法写入 a.csv：请清理数据目录所在的磁盘后重试"
        );
    }
}
