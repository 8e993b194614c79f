//! LibreOffice dies with the service. A `kill -9` of the service once left a 2.6 GB
//! soffice.bin spinning under PID 1; two measures prevent that:
//!
//! - Every child is started with a parent-death signal (SIGKILL). Linux sends it when the
//!   *thread* that forked the child ends, not the process, so all children are forked by one
//!   spawner thread that lives as long as the process.
//! - Each scratch directory records its soffice's pid and start time in `soffice.pid`;
//!   [`reap_leftovers`] kills a still-running one and removes the directory at start-up (the
//!   signal cannot reach a child whose parent died before it was armed).

use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::mpsc::{self, Sender, SyncSender};
use std::sync::{Mutex, OnceLock, PoisonError};

use rustix::process::{Pid, Signal};

/// The file in a scratch directory naming the soffice started for it.
const PID_FILE: &str = "soffice.pid";

/// Prefix of the scratch directories a converter makes in its work dir.
pub(crate) const SCRATCH_PREFIX: &str = "docgen-";

type SpawnRequest = (Command, SyncSender<io::Result<Child>>);

fn spawner() -> io::Result<Sender<SpawnRequest>> {
    static SPAWNER: OnceLock<Mutex<Option<Sender<SpawnRequest>>>> = OnceLock::new();
    let slot = SPAWNER.get_or_init(|| Mutex::new(None));
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(sender) = slot.as_ref() {
        return Ok(sender.clone());
    }
    let (sender, requests) = mpsc::channel::<SpawnRequest>();
    std::thread::Builder::new()
        .name("docgen-spawner".into())
        .spawn(move || {
            for (mut command, answer) in requests {
                let _ = answer.send(spawn_armed(&mut command));
            }
        })?;
    *slot = Some(sender.clone());
    Ok(sender)
}

#[expect(
    unsafe_code,
    reason = "pre_exec runs between fork and exec; the closure makes two plain syscalls \
              (prctl, getppid) and allocates nothing, which is async-signal-safe"
)]
fn spawn_armed(command: &mut Command) -> io::Result<Child> {
    use std::os::unix::process::CommandExt;
    let parent = rustix::process::getpid();
    // SAFETY: see the `expect` reason above.
    unsafe {
        command.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            // The parent may have died between fork and prctl: then nobody would signal us.
            if rustix::process::getppid() != Some(parent) {
                return Err(io::Error::other("parent exited"));
            }
            Ok(())
        });
    }
    command.spawn()
}

/// Starts `command` so that it is killed when the service ends, however it ends.
pub(crate) fn spawn(command: Command) -> io::Result<Child> {
    let (answer, result) = mpsc::sync_channel(1);
    spawner()?
        .send((command, answer))
        .map_err(|_| io::Error::other("spawner thread gone"))?;
    result
        .recv()
        .map_err(|_| io::Error::other("spawner thread gone"))?
}

/// The start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), which
/// tells a pid reused by another process from ours.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and brackets: count from its closing one.
    let after_name = stat.get(stat.rfind(')')? + 1..)?;
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// Records `pid` as the soffice of `scratch`, for [`reap_leftovers`].
pub(crate) fn record(scratch: &Path, pid: u32) {
    if let Some(started) = start_time(pid) {
        let _ = std::fs::write(scratch.join(PID_FILE), format!("{pid} {started}\n"));
    }
}

/// Kills the soffice a scratch directory records, if that very process still runs.
fn kill_recorded(scratch: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(scratch.join(PID_FILE)) else {
        return false;
    };
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    let (Some(Ok(pid)), Some(Ok(started))) = (fields.next(), fields.next()) else {
        return false;
    };
    let Ok(pid) = u32::try_from(pid) else {
        return false;
    };
    if start_time(pid) != Some(started) {
        return false;
    }
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    rustix::process::kill_process(pid, Signal::KILL).is_ok()
}

/// What [`reap_leftovers`] cleaned.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reaped {
    /// LibreOffice processes killed.
    pub processes: usize,
    /// Scratch directories removed.
    pub directories: usize,
    /// Pipe sockets of dead services removed from /tmp.
    pub pipes: usize,
}

/// Cleans what an earlier run of the service left in `work_dir` (its converter's work dir):
/// kills the LibreOffice each scratch directory records, if still running, and removes the
/// directories; also removes the pipe sockets of dead services. Call at start-up, before the
/// converter is used.
pub fn reap_leftovers(work_dir: &Path) -> Reaped {
    let mut reaped = Reaped {
        pipes: crate::warm::remove_orphan_pipes(),
        ..Reaped::default()
    };
    let Ok(entries) = std::fs::read_dir(work_dir) else {
        return reaped;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(SCRATCH_PREFIX));
        if !ours || !path.is_dir() {
            continue;
        }
        if kill_recorded(&path) {
            reaped.processes += 1;
        }
        if std::fs::remove_dir_all(&path).is_ok() {
            reaped.directories += 1;
        }
    }
    reaped
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
            scratch.join(PID_FILE),
            format!("{} 1\n", std::process::id()),
        )
        .unwrap();
        assert_eq!(reap_leftovers(work.path()).processes, 0);
        assert!(!scratch.exists());
    }
}
