//! A crate's public API as sorted lines, from rustdoc's JSON (`--output-format json`): a walk
//! from the root module over what is publicly reachable (module items, `use` re-exports and
//! globs, struct fields, enum variants, trait items, public inherent methods, trait impls),
//! one line per item. The JSON is read as generic values, so a newer format version degrades
//! to compact or changed lines rather than a parse error.

use super::signature::{Names, key};
use serde_json::Value;
use std::collections::BTreeMap;

/// The rustdoc JSON format this renderer was written against (rustdoc 1.95).
pub(crate) const FORMAT_VERSION: u64 = 57;

/// Traits whose impls are compiler plumbing, not API: `derive(PartialEq)` adds one.
const NOISE_TRAITS: [&str; 1] = ["StructuralPartialEq"];

/// The snapshot lines of one crate's rustdoc JSON: each once, sorted by the path of the item
/// they belong to (a type's line, then its fields, variants and methods, then its impls), and
/// by their text within one path.
pub(crate) fn render(doc: &Value) -> anyhow::Result<Vec<String>> {
    let object = |key: &str| {
        doc.get(key)
            .and_then(Value::as_object)
            .ok_or_else(|| anyhow::anyhow!("rustdoc JSON without `{key}`"))
    };
    let mut api = Api {
        names: Names {
            index: object("index")?,
            paths: object("paths")?,
        },
        lines: BTreeMap::new(),
        impls: BTreeMap::new(),
        modules: Vec::new(),
    };
    let root = &doc["root"];
    let name = api
        .item(root)
        .and_then(|r| r["name"].as_str())
        .ok_or_else(|| anyhow::anyhow!("rustdoc JSON: the root module is not in the index"))?;
    api.module(root, name);
    let mut sorted: Vec<(String, String)> = api
        .lines
        .into_iter()
        .map(|(line, key)| (key, line))
        .collect();
    sorted.extend(api.impls.into_values());
    sorted.sort();
    Ok(sorted.into_iter().map(|(_, line)| line).collect())
}

struct Api<'a> {
    names: Names<'a>,
    /// Each line with the path it sorts under: the least of the paths it was reached by, so
    /// that the order does not depend on the order of the walk.
    lines: BTreeMap<String, String>,
    /// Trait impls by id, each with its least path and its line (two types of one name in
    /// different modules give two impls of one text, both kept).
    impls: BTreeMap<String, (String, String)>,
    /// The modules being walked, so that glob re-exports in a cycle end.
    modules: Vec<String>,
}

/// The item's kind and its kind-specific part (`"inner": {"struct": {…}}`).
fn inner(item: &Value) -> Option<(&str, &Value)> {
    let (kind, value) = item["inner"].as_object()?.iter().next()?;
    Some((kind.as_str(), value))
}

pub(super) fn array(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

pub(super) fn flag(value: &Value) -> bool {
    value.as_bool() == Some(true)
}

fn name(item: &Value) -> &str {
    item["name"].as_str().unwrap_or("_")
}

/// `#[non_exhaustive]` and `#[deprecated]`, the attributes that change what a caller may do.
fn attributes(item: &Value) -> String {
    let mut out = String::new();
    let non_exhaustive = array(&item["attrs"]).iter().any(|a| {
        a.as_str() == Some("non_exhaustive")
            || a["other"]
                .as_str()
                .is_some_and(|s| s.contains("non_exhaustive"))
    });
    if non_exhaustive {
        out.push_str("#[non_exhaustive] ");
    }
    if !item["deprecation"].is_null() {
        out.push_str("#[deprecated] ");
    }
    out
}

impl<'a> Api<'a> {
    fn item(&self, id: &Value) -> Option<&'a Value> {
        self.names.item(id)
    }

    fn add(&mut self, key: &str, line: String) {
        self.lines
            .entry(line)
            .and_modify(|k| {
                if key < k.as_str() {
                    key.clone_into(k);
                }
            })
            .or_insert_with(|| key.to_owned());
    }

    fn module(&mut self, id: &Value, path: &str) {
        let (Some(key), Some(module)) = (key(id), self.item(id)) else {
            return;
        };
        if self.modules.contains(&key) {
            return;
        }
        self.modules.push(key);
        for child in array(&module["inner"]["module"]["items"]) {
            self.member(child, path);
        }
        self.modules.pop();
    }

    /// One item of a module whose public path is `prefix`.
    fn member(&mut self, id: &Value, prefix: &str) {
        let Some(item) = self.item(id) else {
            return;
        };
        if item["visibility"].as_str() != Some("public") {
            return;
        }
        match inner(item) {
            Some(("use", reexport)) => self.reexport(reexport, prefix),
            Some(_) => self.item_at(id, item, &format!("{prefix}::{}", name(item))),
            None => {}
        }
    }

    /// A `pub use`: its target under the new name when this crate's JSON has it, else a line
    /// naming where it comes from (another crate's item, whose API is that crate's snapshot).
    fn reexport(&mut self, reexport: &Value, prefix: &str) {
        let alias = reexport["name"].as_str().unwrap_or("_");
        let glob = flag(&reexport["is_glob"]);
        let target = &reexport["id"];
        match self.item(target) {
            Some(item) if glob => match inner(item) {
                Some(("module", _)) => self.module(target, prefix),
                Some(("enum", e)) => {
                    let names = self.names;
                    for variant in array(&e["variants"]).iter().filter_map(|v| names.item(v)) {
                        let path = format!("{prefix}::{}", name(variant));
                        self.add(&path, format!("pub use {path}"));
                    }
                }
                _ => {
                    self.add(prefix, format!("pub use {prefix}::*"));
                }
            },
            Some(item) => self.item_at(target, item, &format!("{prefix}::{alias}")),
            None => {
                let source = self.names.path_name(target, reexport["source"].as_str());
                if glob {
                    self.add(prefix, format!("pub use {prefix}::* = {source}::*"));
                } else {
                    let path = format!("{prefix}::{alias}");
                    self.add(&path, format!("pub use {path} = {source}"));
                }
            }
        }
    }

    /// The lines of one item reached at `path`.
    fn item_at(&mut self, id: &Value, item: &Value, path: &str) {
        let Some((kind, inner)) = inner(item) else {
            return;
        };
        let attrs = attributes(item);
        let line = match kind {
            "module" => {
                self.add(path, format!("{attrs}pub mod {path}"));
                self.module(id, path);
                return;
            }
            "struct" => return self.structure(&attrs, inner, path),
            "union" => return self.union(&attrs, inner, path),
            "enum" => return self.enumeration(&attrs, inner, path),
            "trait" => return self.trait_lines(&attrs, inner, path),
            "function" => format!("pub {}", self.names.function(path, inner, &[])),
            "constant" => format!("pub const {path}: {}", self.names.ty(&inner["type"])),
            "static" => {
                let mutable = if flag(&inner["is_mutable"]) {
                    "mut "
                } else {
                    ""
                };
                format!(
                    "pub static {mutable}{path}: {}",
                    self.names.ty(&inner["type"])
                )
            }
            "type_alias" => format!(
                "pub type {path}{} = {}{}",
                self.names.params(&inner["generics"]),
                self.names.ty(&inner["type"]),
                self.names.where_clause(&inner["generics"], Vec::new())
            ),
            "macro" => {
                let text = inner.as_str().unwrap_or("");
                let arms = text.split_once('{').map_or("", |(_, arms)| arms);
                let arms = arms.split_whitespace().collect::<Vec<_>>().join(" ");
                format!("pub macro {path}! {{ {arms}")
            }
            "proc_macro" => {
                let kind = inner["kind"].as_str().unwrap_or("bang");
                format!("pub proc_macro {kind} {path}")
            }
            other => format!("pub {other} {path}"),
        };
        self.add(path, format!("{attrs}{line}"));
    }

    fn structure(&mut self, attrs: &str, s: &Value, path: &str) {
        let generics = self.names.params(&s["generics"]);
        let wheres = self.names.where_clause(&s["generics"], Vec::new());
        let kind = &s["kind"];
        let header = if let Some(fields) = kind.get("tuple") {
            let fields: Vec<String> = array(fields)
                .iter()
                .map(|f| match self.item(f) {
                    Some(field) => {
                        format!("pub {}", self.names.ty(&field["inner"]["struct_field"]))
                    }
                    None => "_".to_owned(),
                })
                .collect();
            format!("pub struct {path}{generics}({}){wheres}", fields.join(", "))
        } else if let Some(plain) = kind.get("plain") {
            self.fields(&plain["fields"], path);
            let private = if flag(&plain["has_stripped_fields"]) {
                " { /* private fields */ }"
            } else {
                ""
            };
            format!("pub struct {path}{generics}{wheres}{private}")
        } else {
            format!("pub struct {path}{generics}{wheres};")
        };
        self.add(path, format!("{attrs}{header}"));
        self.impls(&s["impls"], path);
    }

    fn union(&mut self, attrs: &str, u: &Value, path: &str) {
        let generics = self.names.params(&u["generics"]);
        let wheres = self.names.where_clause(&u["generics"], Vec::new());
        let private = if flag(&u["has_stripped_fields"]) {
            " { /* private fields */ }"
        } else {
            ""
        };
        self.add(
            path,
            format!("{attrs}pub union {path}{generics}{wheres}{private}"),
        );
        self.fields(&u["fields"], path);
        self.impls(&u["impls"], path);
    }

    /// `pub path::field: Type` for each (public) field.
    fn fields(&mut self, ids: &Value, path: &str) {
        let names = self.names;
        for field in array(ids).iter().filter_map(|f| names.item(f)) {
            if field["visibility"].as_str() == Some("public") {
                let ty = self.names.ty(&field["inner"]["struct_field"]);
                let path = format!("{path}::{}", name(field));
                self.add(&path, format!("pub {path}: {ty}"));
            }
        }
    }

    fn enumeration(&mut self, attrs: &str, e: &Value, path: &str) {
        let generics = self.names.params(&e["generics"]);
        let wheres = self.names.where_clause(&e["generics"], Vec::new());
        let private = if flag(&e["has_stripped_variants"]) {
            " { /* private variants */ }"
        } else {
            ""
        };
        self.add(
            path,
            format!("{attrs}pub enum {path}{generics}{wheres}{private}"),
        );
        let names = self.names;
        for variant in array(&e["variants"]).iter().filter_map(|v| names.item(v)) {
            let line = self.variant(variant, path);
            self.add(&format!("{path}::{}", name(variant)), line);
        }
        self.impls(&e["impls"], path);
    }

    fn variant(&self, variant: &Value, path: &str) -> String {
        let v = &variant["inner"]["variant"];
        let field = |id: &Value| {
            self.item(id)
                .map(|f| (name(f), self.names.ty(&f["inner"]["struct_field"])))
        };
        let shape = if let Some(fields) = v["kind"].get("tuple") {
            let types: Vec<String> = array(fields)
                .iter()
                .map(|id| field(id).map_or_else(|| "_".to_owned(), |(_, ty)| ty))
                .collect();
            format!("({})", types.join(", "))
        } else if let Some(s) = v["kind"].get("struct") {
            let mut fields: Vec<String> = array(&s["fields"])
                .iter()
                .filter_map(field)
                .map(|(n, ty)| format!("{n}: {ty}"))
                .collect();
            if flag(&s["has_stripped_fields"]) {
                fields.push("..".to_owned());
            }
            format!(" {{ {} }}", fields.join(", "))
        } else {
            String::new()
        };
        let discriminant = v["discriminant"]["expr"]
            .as_str()
            .map_or_else(String::new, |d| format!(" = {d}"));
        let attrs = attributes(variant);
        format!(
            "{attrs}pub enum variant {path}::{}{shape}{discriminant}",
            name(variant)
        )
    }

    fn trait_lines(&mut self, attrs: &str, t: &Value, path: &str) {
        let unsafety = if flag(&t["is_unsafe"]) { "unsafe " } else { "" };
        let auto = if flag(&t["is_auto"]) { "auto " } else { "" };
        let supertraits = self.names.bounds(&t["bounds"]);
        let supertraits = if supertraits.is_empty() {
            supertraits
        } else {
            format!(": {supertraits}")
        };
        self.add(
            path,
            format!(
                "{attrs}pub {unsafety}{auto}trait {path}{}{supertraits}{}",
                self.names.params(&t["generics"]),
                self.names.where_clause(&t["generics"], Vec::new())
            ),
        );
        let names = self.names;
        for member in array(&t["items"]).iter().filter_map(|i| names.item(i)) {
            let line = self.associated(member, path);
            self.add(&format!("{path}::{}", name(member)), line);
        }
        for id in array(&t["implementations"]) {
            self.trait_impl(id, path);
        }
    }

    /// An associated item (of a trait, or of an inherent impl) under `owner`.
    fn associated(&self, member: &Value, owner: &str) -> String {
        let attrs = attributes(member);
        let path = format!("{owner}::{}", name(member));
        let line = match inner(member) {
            Some(("function", f)) => format!("pub {}", self.names.function(&path, f, &[])),
            Some(("assoc_const", c)) => format!("pub const {path}: {}", self.names.ty(&c["type"])),
            Some(("assoc_type", t)) => {
                let bounds = self.names.bounds(&t["bounds"]);
                let bounds = if bounds.is_empty() {
                    bounds
                } else {
                    format!(": {bounds}")
                };
                let default = if t["type"].is_null() {
                    String::new()
                } else {
                    format!(" = {}", self.names.ty(&t["type"]))
                };
                format!(
                    "pub type {path}{}{bounds}{default}",
                    self.names.params(&t["generics"])
                )
            }
            Some((kind, _)) => format!("pub {kind} {path}"),
            None => format!("pub {path}"),
        };
        format!("{attrs}{line}")
    }

    /// A type's impls: public inherent items under `path`, and trait impls, leaving out
    /// auto-trait (synthetic) and blanket impls.
    fn impls(&mut self, ids: &Value, path: &str) {
        for id in array(ids) {
            let Some(imp) = self.item(id).map(|i| &i["inner"]["impl"]) else {
                continue;
            };
            if flag(&imp["is_synthetic"]) || !imp["blanket_impl"].is_null() {
                continue;
            }
            if imp["trait"].is_null() {
                self.inherent(imp, path);
            } else {
                self.trait_impl(id, path);
            }
        }
    }

    fn inherent(&mut self, imp: &Value, path: &str) {
        // `impl Machine<Ready>` and `impl Machine<Draft>` may both have a `submit`.
        let args = imp["for"]["resolved_path"]["args"].clone();
        let owner = format!("{path}{}", self.names.args(&args));
        let outer = self.names.impl_bounds(&imp["generics"]);
        let names = self.names;
        for member in array(&imp["items"]).iter().filter_map(|i| names.item(i)) {
            if member["visibility"].as_str() != Some("public") {
                continue;
            }
            let line = match inner(member) {
                Some(("function", f)) => {
                    let path = format!("{owner}::{}", name(member));
                    format!(
                        "{}pub {}",
                        attributes(member),
                        self.names.function(&path, f, &outer)
                    )
                }
                _ => self.associated(member, &owner),
            };
            self.add(&format!("{path}::{}", name(member)), line);
        }
    }

    /// `impl<G> Trait for Type where … { type Assoc = T }`, written the same whichever of
    /// the type and the trait led here (`owner`), so that it is kept once, sorted after the
    /// owner's members.
    fn trait_impl(&mut self, id: &Value, owner: &str) {
        let Some(imp) = self.item(id).map(|i| &i["inner"]["impl"]) else {
            return;
        };
        if flag(&imp["is_synthetic"]) || !imp["blanket_impl"].is_null() {
            return;
        }
        let trait_name = self
            .names
            .path_name(&imp["trait"]["id"], imp["trait"]["path"].as_str());
        if NOISE_TRAITS.iter().any(|n| trait_name.ends_with(n)) {
            return;
        }
        let unsafety = if flag(&imp["is_unsafe"]) {
            "unsafe "
        } else {
            ""
        };
        let negative = if flag(&imp["is_negative"]) { "!" } else { "" };
        let types: Vec<String> = array(&imp["items"])
            .iter()
            .filter_map(|i| self.item(i))
            .filter_map(|m| match inner(m) {
                Some(("assoc_type", t)) => {
                    Some(format!("type {} = {}", name(m), self.names.ty(&t["type"])))
                }
                _ => None,
            })
            .collect();
        let types = if types.is_empty() {
            String::new()
        } else {
            format!(" {{ {} }}", types.join("; "))
        };
        let line = format!(
            "{unsafety}impl{} {negative}{} for {}{}{types}",
            self.names.params(&imp["generics"]),
            self.names.path(&imp["trait"]),
            self.names.ty(&imp["for"]),
            self.names.where_clause(&imp["generics"], Vec::new())
        );
        let sort_key = format!("{owner}::~impl");
        let Some(id) = key(id) else {
            return;
        };
        self.impls
            .entry(id)
            .and_modify(|(k, _)| {
                if sort_key < *k {
                    k.clone_from(&sort_key);
                }
            })
            .or_insert_with(|| (sort_key.clone(), line));
    }
}
