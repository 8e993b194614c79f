//! LibreOffice dies with the service: every soffice is started through `child_lifetime`
//! (a parent-death signal) and recorded in its scratch directory, which [`reap_leftovers`]
//! cleans at the next start if a `kill -9` left it running.

use std::io;
use std::path::Path;
use std::process::{Child, Command};

/// Prefix of the scratch directories a converter makes in its work dir.
pub(crate) const SCRATCH_PREFIX: &str = "docgen-";

/// Starts `command` so that it is killed when the service ends, however it ends.
pub(crate) fn spawn(command: Command) -> io::Result<Child> {
    child_lifetime::spawn(command)
}

/// Records `pid` as the soffice of `scratch`, for [`reap_leftovers`].
pub(crate) fn record(scratch: &Path, pid: u32) {
    let _ = child_lifetime::record(scratch, pid);
}

/// What [`reap_leftovers`] cleaned.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReapedOffice {
    /// LibreOffice processes killed.
    pub processes: usize,
    /// Scratch directories removed.
    pub directories: usize,
    /// Pipe sockets of dead services removed from /tmp.
    pub pipes: usize,
}

/// Cleans what an earlier run of the service left in `work_dir` (its converter's work dir):
/// kills the LibreOffice each scratch directory records, if still running, and removes the
/// directories; then removes the pipe sockets in /tmp that no LibreOffice listens on. Call at
/// start-up, before the converter is used, and at shutdown, after its last use.
pub fn reap_leftovers(work_dir: &Path) -> ReapedOffice {
    // soffice's helpers carry the scratch folder in TMPDIR; and a pipe is stale only once its
    // process is gone, so the pipes are swept after.
    let dirs = child_lifetime::reap_scratch_dirs(
        work_dir,
        SCRATCH_PREFIX,
        std::time::Duration::from_secs(5),
    );
    ReapedOffice {
        processes: dirs.processes,
        directories: dirs.directories,
        pipes: crate::warm::remove_orphan_pipes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_process_is_killed_and_its_directory_removed() {
        let work = tempfile::tempdir().unwrap();
        let scratch = work.path().join("docgen-test");
        std::fs::create_dir(&scratch).unwrap();
        let mut sleeper = spawn({
            let mut c = Command::new("sleep");
            c.arg("60");
            c
        })
        .unwrap();
        record(&scratch, sleeper.id());
        let other = work.path().join("unrelated");
        std::fs::create_dir(&other).unwrap();
        let reaped = reap_leftovers(work.path());
        assert_eq!((reaped.processes, reaped.directories), (1, 1));
        let _ = sleeper.wait();
        assert!(!scratch.exists() && other.exists());
    }

    #[test]
    fn a_reused_pid_is_left_alone() {
        let work = tempfile::tempdir().unwrap();
        let scratch = work.path().join("docgen-old");
        std::fs::create_dir(&scratch).unwrap();
        // Our own pid with a start time it never had: a pid since reused by another process.
        std::fs::write(
            scratch.join(child_lifetime::PID_FILE),
            format!("{} 1\n", std::process::id()),
        )
        .unwrap();
        assert_eq!(reap_leftovers(work.path()).processes, 0);
        assert!(!scratch.exists());
    }
}
