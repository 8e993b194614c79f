//! The crate boundaries of docs/ARCHITECTURE.md, checked against the manifests and sources on
//! every `cargo xtask test` (this module is a test of the xtask crate).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Which workspace crates each crate may use in `[dependencies]` (the layers).
const LAYERS: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("pdf-text", &[]),
    ("pp-ocr", &[]),
    ("invoice-qr", &["pdf-text"]),
    ("classify", &["domain"]),
    ("agent", &["domain"]),
    ("child-lifetime", &[]),
    ("auth", &[]),
    ("docgen", &["child-lifetime", "domain"]),
    ("claim-print", &["domain", "pdf-text"]),
    ("llm", &["domain"]),
    ("payments", &["domain", "pp-ocr"]),
    ("finance-bot", &["domain", "child-lifetime"]),
    ("extraction", &["domain", "pdf-text", "invoice-qr"]),
    ("page-ocr", &["extraction", "pp-ocr"]),
    ("session-store", &["domain"]),
    ("ledger", &["domain"]),
    (
        "pipeline",
        &[
            "agent",
            "domain",
            "session-store",
            "extraction",
            "page-ocr",
            "classify",
            "docgen",
            "claim-print",
            "llm",
            "payments",
            "finance-bot",
            "ledger",
        ],
    ),
    (
        "http-api",
        &["auth", "domain", "session-store", "ledger", "pipeline"],
    ),
    ("demo-portal", &[]),
    ("campus-portal", &[]),
    ("invoice-fixtures", &["domain"]),
];

/// External packages only some crates may use (normal dependencies).
const EXCLUSIVE: &[(&str, &[&str])] = &[
    ("actix-web", &["http-api", "demo-portal", "campus-portal"]),
    (
        "actix-multipart",
        &["http-api", "demo-portal", "campus-portal"],
    ),
    ("actix-files", &["http-api"]),
    ("notify", &["http-api"]),
    ("actix-http", &["http-api"]),
    ("actix-server", &["http-api"]),
    ("httparse", &["http-api"]),
    ("rustix", &["finance-bot", "child-lifetime"]),
    ("thirtyfour", &["finance-bot"]),
    ("reqwest", &["llm"]),
    ("async-openai", &["llm"]),
    ("ort", &["pp-ocr"]),
    ("sqlx", &["ledger"]),
    ("rust_xlsxwriter", &["ledger"]),
    ("argon2", &["auth"]),
    ("hmac", &["auth"]),
    ("typst", &["claim-print"]),
    ("typst-pdf", &["claim-print"]),
    ("typst-layout", &["claim-print"]),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Each crate's `[dependencies]` names, read from the manifests under crates/, keyed by the
/// crate's directory (the name the workspace's dependency keys use; the packages carry the
/// `reimburse-` prefix, see `library_packages_carry_the_prefix`).
fn dependencies() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(root().join("crates")) else {
        return out;
    };
    for entry in entries.flatten() {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("Cargo.toml")) else {
            continue;
        };
        let mut name = String::new();
        let mut deps = Vec::new();
        let mut section = String::new();
        for line in manifest.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.to_owned();
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let key = key.trim();
            if section == "[package]" && key == "name" {
                name = value.trim().trim_matches('"').to_owned();
            } else if section == "[dependencies]" && !key.starts_with('#') {
                deps.push(key.split('.').next().unwrap_or(key).trim().to_owned());
            }
        }
        if name.is_empty() {
            continue;
        }
        out.insert(entry.file_name().to_string_lossy().into_owned(), deps);
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each crate's `[package] name`, keyed by its directory under crates/.
fn package_names() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(root().join("crates")) else {
        return out;
    };
    for entry in entries.flatten() {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("Cargo.toml")) else {
            continue;
        };
        let name = manifest
            .lines()
            .skip_while(|l| l.trim() != "[package]")
            .find_map(|l| l.trim().strip_prefix("name = "))
            .map(|v| v.trim_matches('"').to_owned());
        if let Some(name) = name {
            out.insert(entry.file_name().to_string_lossy().into_owned(), name);
        }
    }
    out
}

/// Library crates are published under one prefix (as ripgrep's `grep-*`), so that `domain` or
/// `agent` never clash in another program's dependency tree; the directory keeps the short
/// name, which is also the workspace's dependency key.
#[test]
fn library_packages_carry_the_prefix() {
    let names = package_names();
    assert!(names.len() > 20, "manifests not read: {names:?}");
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap_or_default();
    let mut broken = Vec::new();
    for (dir, name) in &names {
        let expected = if dir == "reimburse" {
            "reimburse".to_owned()
        } else {
            format!("reimburse-{dir}")
        };
        if *name != expected {
            broken.push(format!("crates/{dir} is named {name}, not {expected}"));
        }
        let key = format!("{dir} = {{ path = \"crates/{dir}\", package = \"{expected}\" }}");
        if dir != "reimburse" && !workspace.contains(&key) {
            broken.push(format!(
                "the workspace's dependency line for {dir} is not `{key}`"
            ));
        }
    }
    assert!(broken.is_empty(), "{broken:?}");
}

#[test]
fn crates_use_only_the_layers_above_them() {
    let deps = dependencies();
    let layers: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let workspace: Vec<&String> = deps.keys().collect();
    let mut broken = Vec::new();
    for (krate, used) in &deps {
        if krate == "reimburse" {
            continue; // the binary wires everything together
        }
        let Some(allowed) = layers.get(krate.as_str()) else {
            broken.push(format!(
                "{krate} is not in LAYERS (add it, and to ARCHITECTURE.md)"
            ));
            continue;
        };
        for dep in used {
            if workspace.contains(&dep) && !allowed.contains(&dep.as_str()) {
                broken.push(format!("{krate} depends on {dep}"));
            }
        }
    }
    assert!(broken.is_empty(), "layering broken: {broken:?}");
}

#[test]
fn exclusive_packages_stay_in_their_crates() {
    let deps = dependencies();
    let mut broken = Vec::new();
    for (package, _) in EXCLUSIVE {
        // Proves the manifests were read: every listed package is used somewhere.
        assert!(
            deps.values().flatten().any(|d| d == package),
            "no crate uses {package}: stale rule or unread manifests"
        );
    }
    for (krate, used) in deps {
        for (package, owners) in EXCLUSIVE {
            if used.iter().any(|d| d == package) && !owners.contains(&krate.as_str()) {
                broken.push(format!("{krate} uses {package} (only {owners:?} may)"));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:?}");
}

#[test]
fn domain_uses_only_serde() {
    let deps = dependencies();
    let domain = deps.get("domain").cloned().unwrap_or_default();
    assert!(
        domain.iter().all(|d| d == "serde" || d == "serde_json"),
        "domain has no IO: {domain:?}"
    );
}

/// Where `unsafe` may be allowed: the one `pre_exec` that arms a child's parent-death signal.
const UNSAFE_ALLOWED: [&str; 1] = ["crates/child-lifetime/src/lib.rs"];

#[test]
fn unsafe_code_is_allowed_only_where_documented() {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    rust_files(&root().join("xtask/src"), &mut files);
    let needles = [
        ["allow(", "unsafe_code"].concat(),
        ["expect(", "unsafe_code"].concat(),
    ];
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !UNSAFE_ALLOWED.iter().any(|a| f.starts_with(root().join(a))))
        .filter(|f| {
            std::fs::read_to_string(f).is_ok_and(|s| {
                let s = s.replace(char::is_whitespace, "");
                needles
                    .iter()
                    .any(|n| s.contains(&n.replace(char::is_whitespace, "")))
            })
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "unsafe code outside {UNSAFE_ALLOWED:?}: {offenders:?}"
    );
    assert!(files.len() > 50, "the sources were found");
}

#[test]
fn pages_insert_values_as_text_only() {
    let dir = root().join("crates/http-api/assets");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        checked += 1;
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
        ] {
            assert!(!text.contains(sink), "{} uses {sink}", path.display());
        }
        if path.extension().is_some_and(|e| e == "html") {
            let inline = text.contains("<script>")
                || text.contains(" onclick=")
                || text.contains(" onload=");
            assert!(!inline, "{} has inline script", path.display());
        }
    }
    assert!(checked >= 5, "the page assets were found");
}
