//! Child processes die with the service. A `kill -9` of the service once left a 2.6 GB
//! soffice.bin spinning under PID 1, and chromedriver with its Chromium after it; two measures
//! prevent that:
//!
//! - [`spawn`] starts every child with a parent-death signal (SIGKILL). Linux sends it when the
//!   *thread* that forked the child ends, not the process, so all children are forked by one
//!   spawner thread that lives as long as the process.
//! - [`record`] writes a child's pid and start time into the scratch directory it works in;
//!   [`kill_recorded`] kills that very process at the next start if it still runs (the signal
//!   cannot reach a child whose parent died before it was armed, nor the grandchildren, which
//!   [`kill_marked`] finds by a marker in their command line or environment).
//!
//! ```
//! use reimburse_child_lifetime::{reap_scratch_dirs, record, spawn};
//! use std::process::Command;
//! use std::time::Duration;
//!
//! # fn main() -> std::io::Result<()> {
//! let work_dir = tempfile::tempdir()?; // the service's folder for scratch directories
//!
//! // Each child works in a scratch folder of its own, named with a prefix the caller owns.
//! let scratch = work_dir.path().join("office-1");
//! std::fs::create_dir(&scratch)?;
//! let mut command = Command::new("sleep");
//! command.arg("60");
//! let mut child = spawn(command)?; // dies with this process, however it ends
//! record(&scratch, child.id())?; // and is found again by the next start after a `kill -9`
//!
//! // At the next start: kill what an earlier run left behind, remove its scratch folders.
//! let reaped = reap_scratch_dirs(work_dir.path(), "office-", Duration::from_secs(5));
//! assert_eq!((reaped.processes, reaped.directories), (1, 1));
//! assert!(!child.wait()?.success());
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`spawn`] in place of [`Command::spawn`]; add [`record`] and, at start-up,
//! [`reap_scratch_dirs`] (or [`kill_recorded`] and [`kill_marked_and_wait`] alone) for
//! children that work in a scratch folder. Linux only (`prctl`, `/proc`).
//!
//! The crate holds the workspace's one `unsafe`: the `pre_exec` that arms the signal.

#![warn(missing_docs)]

use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::mpsc::{self, Sender, SyncSender};
use std::sync::{Mutex, OnceLock, PoisonError};

use rustix::process::{Pid, Signal};

/// The file in a scratch directory naming the child started for it.
pub const PID_FILE: &str = "child.pid";

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
        .name("child-spawner".into())
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
pub fn spawn(command: Command) -> io::Result<Child> {
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

/// Records `pid` as the child of `scratch`, for [`kill_recorded`].
pub fn record(scratch: &Path, pid: u32) -> io::Result<()> {
    let started = start_time(pid).ok_or_else(|| io::Error::other("process already gone"))?;
    std::fs::write(scratch.join(PID_FILE), format!("{pid} {started}\n"))
}

/// Kills the child `scratch` records, if that very process still runs; true when killed.
pub fn kill_recorded(scratch: &Path) -> bool {
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

/// Kills every process (but this one) whose command line or environment contains `marker`,
/// such as the scratch directory's path that a child and all its descendants carry; returns
/// how many were signalled.
pub fn kill_marked(marker: &str) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let own = std::process::id();
    let needle = marker.as_bytes();
    let mut killed = 0;
    for entry in entries.flatten() {
        let Some(number) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if number == own {
            continue;
        }
        let carries = |file: &str| {
            std::fs::read(entry.path().join(file))
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
        };
        if !needle.is_empty() && (carries("cmdline") || carries("environ")) {
            let pid = i32::try_from(number).ok().and_then(Pid::from_raw);
            if pid.is_some_and(|pid| rustix::process::kill_process(pid, Signal::KILL).is_ok()) {
                killed += 1;
            }
        }
    }
    killed
}

/// [`kill_marked`], then waits until no process carrying `marker` is left (a killed process
/// lingers for a moment; a zombie no longer shows its command line), at most `timeout`.
/// Returns how many were signalled in all.
pub fn kill_marked_and_wait(marker: &str, timeout: std::time::Duration) -> usize {
    let deadline = std::time::Instant::now() + timeout;
    let mut total = 0;
    loop {
        let signalled = kill_marked(marker);
        total += signalled;
        if signalled == 0 || std::time::Instant::now() >= deadline {
            return total;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// What [`reap_scratch_dirs`] cleaned.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReapedDirs {
    /// Processes killed: the recorded child and those carrying a folder's path.
    pub processes: usize,
    /// Scratch folders removed.
    pub directories: usize,
}

/// Cleans the scratch folders named `prefix…` in `work_dir` that an earlier run of the
/// service left: kills the child each records and every process still carrying the folder's
/// path (waiting until they are gone, at most `wait` per folder), then removes the folder.
pub fn reap_scratch_dirs(work_dir: &Path, prefix: &str, wait: std::time::Duration) -> ReapedDirs {
    let mut reaped = ReapedDirs::default();
    let Ok(entries) = std::fs::read_dir(work_dir) else {
        return reaped;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(prefix));
        if !ours || !path.is_dir() {
            continue;
        }
        reaped.processes += usize::from(kill_recorded(&path));
        reaped.processes += kill_marked_and_wait(&path.display().to_string(), wait);
        if std::fs::remove_dir_all(&path).is_ok() {
            reaped.directories += 1;
        }
    }
    reaped
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    fn sleeper(args: &[&str]) -> Child {
        let mut command = Command::new("sleep");
        command.args(args);
        spawn(command).unwrap()
    }

    #[test]
    fn a_recorded_process_is_killed() {
        let scratch = tempfile::tempdir().unwrap();
        let mut child = sleeper(&["60"]);
        record(scratch.path(), child.id()).unwrap();
        assert!(kill_recorded(scratch.path()));
        let _ = child.wait();
    }

    #[test]
    fn a_reused_pid_is_left_alone() {
        let scratch = tempfile::tempdir().unwrap();
        // Our own pid with a start time it never had: a pid since reused by another process.
        std::fs::write(
            scratch.path().join(PID_FILE),
            format!("{} 1\n", std::process::id()),
        )
        .unwrap();
        assert!(!kill_recorded(scratch.path()));
    }

    #[test]
    fn a_process_carrying_the_marker_is_killed_and_others_are_not() {
        let marker = format!("child-lifetime-test-{}", std::process::id());
        let mut marked = Command::new("sleep");
        marked.arg("60").env("CHILD_LIFETIME_TEST", &marker);
        let mut marked = spawn(marked).unwrap();
        let mut other = sleeper(&["60"]);
        assert_eq!(kill_marked(&marker), 1);
        let status = marked.wait().unwrap();
        assert!(!status.success());
        assert!(
            other.try_wait().unwrap().is_none(),
            "an unmarked process was killed"
        );
        let _ = other.kill();
        let _ = other.wait();
    }
}
