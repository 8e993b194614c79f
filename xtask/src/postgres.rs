//! A throwaway PostgreSQL cluster for the ledger's tests and bench: Debian's server binaries,
//! `initdb` into a fresh temporary folder (as the `postgres` user when we are root, since
//! initdb refuses root), the server on a free local port with its socket in that folder.
//! Dropping the `Cluster` stops the server and removes the folder, whatever the outcome; a
//! cluster left by a killed xtask is reaped at the next start.

use anyhow::{Context, bail};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Folders of our clusters in the temporary folder: `reimburse-pg-<xtask pid>-<nanos>`.
const PREFIX: &str = "reimburse-pg-";
/// The role, its password and its database.
const ROLE: &str = "reimburse";

/// A running cluster with a role and a database of its own, reached at [`Cluster::url`].
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    as_postgres: bool,
    port: u16,
}

impl Cluster {
    pub fn start() -> anyhow::Result<Cluster> {
        reap_leftovers();
        let bin = bin_dir()?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!("{PREFIX}{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        // From here on, Drop cleans up whatever fails.
        let cluster = Cluster {
            dir,
            bin,
            as_postgres: crate::install::is_root(),
            port: free_port()?,
        };
        cluster.init()?;
        cluster.start_server()?;
        // Two commands: CREATE DATABASE cannot run inside a transaction block.
        cluster.psql(&[
            &format!("CREATE ROLE {ROLE} LOGIN PASSWORD '{ROLE}'"),
            &format!("CREATE DATABASE {ROLE} OWNER {ROLE}"),
        ])?;
        eprintln!("xtask: PostgreSQL test cluster at {}", cluster.url());
        Ok(cluster)
    }

    /// `postgres://reimburse:reimburse@127.0.0.1:<port>/reimburse`.
    pub fn url(&self) -> String {
        format!("postgres://{ROLE}:{ROLE}@127.0.0.1:{}/{ROLE}", self.port)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// `tool` of the server's binaries, run as `postgres` when we are root.
    fn tool(&self, tool: &str) -> Command {
        tool_command(&self.bin, tool, self.as_postgres)
    }

    fn init(&self) -> anyhow::Result<()> {
        std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o700))?;
        if self.as_postgres {
            run(Command::new("chown")
                .arg("postgres:postgres")
                .arg(&self.dir))?;
        }
        run(self.tool("initdb").arg("-D").arg(self.data()).args([
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "-N",
        ]))
    }

    fn start_server(&self) -> anyhow::Result<()> {
        // A throwaway cluster: durability off, for speed.
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
             -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            self.port,
            self.dir.display()
        );
        let log = self.dir.join("server.log");
        let started = run(self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "-o", &options, "start"]));
        if let Err(e) = started {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            bail!("{e:#}\nserver log:\n{log}");
        }
        Ok(())
    }

    /// Runs each command of `sql` as the superuser, over the cluster's socket.
    fn psql(&self, sql: &[&str]) -> anyhow::Result<()> {
        let port = self.port.to_string();
        let mut command = self.tool("psql");
        command.arg("-h").arg(&self.dir).args(["-p", &port]);
        command.args([
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
        ]);
        for each in sql {
            command.args(["-c", each]);
        }
        run(&mut command)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        stop_and_remove(&self.bin, &self.dir, self.as_postgres);
    }
}

fn tool_command(bin: &Path, tool: &str, as_postgres: bool) -> Command {
    let path = bin.join(tool);
    if as_postgres {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(path);
        command
    } else {
        Command::new(path)
    }
}

/// Stops the server of the cluster in `dir` (if it runs) and removes the folder.
fn stop_and_remove(bin: &Path, dir: &Path, as_postgres: bool) {
    let data = dir.join("data");
    if data.join("postmaster.pid").exists() {
        let stopped = tool_command(bin, "pg_ctl", as_postgres)
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "-t", "30", "stop"])
            .output();
        if !stopped.is_ok_and(|o| o.status.success()) {
            eprintln!(
                "xtask: could not stop the PostgreSQL cluster in {}",
                dir.display()
            );
        }
    }
    if let Err(e) = std::fs::remove_dir_all(dir) {
        eprintln!("xtask: could not remove {}: {e}", dir.display());
    }
}

/// Clusters of xtasks that are gone (killed before their Drop ran).
fn reap_leftovers() {
    let Ok(bin) = bin_dir() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            eprintln!("xtask: removing a leftover PostgreSQL cluster in {name}");
            stop_and_remove(&bin, &entry.path(), crate::install::is_root());
        }
    }
}

/// `/usr/lib/postgresql/<newest version>/bin`, where Debian puts the server's programs.
fn bin_dir() -> anyhow::Result<PathBuf> {
    let root = Path::new("/usr/lib/postgresql");
    let newest = std::fs::read_dir(root)
        .with_context(|| format!("no {} (apt-get install postgresql)", root.display()))?
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .max_by_key(|(version, _)| *version);
    match newest {
        Some((_, bin)) => Ok(bin),
        None => bail!(
            "no initdb under {} (apt-get install postgresql)",
            root.display()
        ),
    }
}

/// A local port nobody listens on (now).
fn free_port() -> anyhow::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").context("no free local port")?;
    Ok(listener.local_addr()?.port())
}

/// Runs `command`; its output in the error when it fails.
fn run(command: &mut Command) -> anyhow::Result<()> {
    let out = command
        .output()
        .with_context(|| format!("cannot run {command:?}"))?;
    if !out.status.success() {
        bail!(
            "{command:?} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}
