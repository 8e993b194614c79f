//! Types, generics and function signatures of rustdoc's JSON written as Rust, compactly: the
//! crate's own types by name, std's as `std::<module>::Name` (prelude names bare), other
//! workspace crates' as `reimburse_x::Name`, other crates' by their full path. Anything this
//! does not know is written as its JSON kind, so an unknown shape still shows in the line.

use super::render::{array, flag};
use serde_json::{Map, Value};

/// std items a program names bare (the prelude's), by std module and name: written without a
/// path (`std::io::Result` is not `Result`).
const PRELUDE: &[(&str, &str)] = &[
    ("convert", "AsMut"),
    ("convert", "AsRef"),
    ("boxed", "Box"),
    ("clone", "Clone"),
    ("marker", "Copy"),
    ("default", "Default"),
    ("iter", "DoubleEndedIterator"),
    ("ops", "Drop"),
    ("cmp", "Eq"),
    ("iter", "ExactSizeIterator"),
    ("iter", "Extend"),
    ("ops", "Fn"),
    ("ops", "FnMut"),
    ("ops", "FnOnce"),
    ("convert", "From"),
    ("iter", "FromIterator"),
    ("convert", "Into"),
    ("iter", "IntoIterator"),
    ("iter", "Iterator"),
    ("option", "Option"),
    ("cmp", "Ord"),
    ("cmp", "PartialEq"),
    ("cmp", "PartialOrd"),
    ("result", "Result"),
    ("marker", "Send"),
    ("marker", "Sized"),
    ("string", "String"),
    ("marker", "Sync"),
    ("borrow", "ToOwned"),
    ("string", "ToString"),
    ("convert", "TryFrom"),
    ("convert", "TryInto"),
    ("marker", "Unpin"),
    ("vec", "Vec"),
];

/// An item id as the index's key (ids are numbers in format 57, strings in older ones).
pub(super) fn key(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The tables of one crate's JSON that names are looked up in.
#[derive(Clone, Copy)]
pub(super) struct Names<'a> {
    pub(super) index: &'a Map<String, Value>,
    pub(super) paths: &'a Map<String, Value>,
}

fn joined<T>(items: &[Value], f: impl Fn(&Value) -> T, separator: &str) -> String
where
    T: Into<String>,
{
    items
        .iter()
        .map(|i| f(i).into())
        .collect::<Vec<String>>()
        .join(separator)
}

impl<'a> Names<'a> {
    pub(super) fn item(&self, id: &Value) -> Option<&'a Value> {
        self.index.get(&key(id)?)
    }

    /// A type as Rust source.
    pub(super) fn ty(&self, t: &Value) -> String {
        if let Some(s) = t.as_str() {
            return if s == "infer" { "_".into() } else { s.into() };
        }
        let Some((kind, v)) = t.as_object().and_then(|o| o.iter().next()) else {
            return "()".into();
        };
        match kind.as_str() {
            "resolved_path" => self.path(v),
            "generic" | "primitive" => v.as_str().unwrap_or("_").to_owned(),
            "tuple" => match array(v) {
                [one] => format!("({},)", self.ty(one)),
                all => format!("({})", joined(all, |t| self.ty(t), ", ")),
            },
            "slice" => format!("[{}]", self.ty(v)),
            "array" => format!(
                "[{}; {}]",
                self.ty(&v["type"]),
                v["len"].as_str().unwrap_or("_")
            ),
            "borrowed_ref" => {
                let lifetime = v["lifetime"]
                    .as_str()
                    .map_or(String::new(), |l| format!("{l} "));
                let mutable = if flag(&v["is_mutable"]) { "mut " } else { "" };
                format!("&{lifetime}{mutable}{}", self.ty(&v["type"]))
            }
            "raw_pointer" => {
                let mutable = if flag(&v["is_mutable"]) {
                    "mut"
                } else {
                    "const"
                };
                format!("*{mutable} {}", self.ty(&v["type"]))
            }
            "impl_trait" => format!("impl {}", self.bounds(v)),
            "dyn_trait" => self.dyn_trait(v),
            "function_pointer" => self.function_pointer(v),
            "qualified_path" => self.qualified_path(v),
            "pat" => format!("{} is _", self.ty(&v["type"])),
            other => format!("<{other}>"),
        }
    }

    fn dyn_trait(&self, v: &Value) -> String {
        let traits = joined(
            array(&v["traits"]),
            |t| {
                format!(
                    "{}{}",
                    self.higher_ranked(&t["generic_params"]),
                    self.path(&t["trait"])
                )
            },
            " + ",
        );
        match v["lifetime"].as_str() {
            Some(lifetime) => format!("dyn {traits} + {lifetime}"),
            None => format!("dyn {traits}"),
        }
    }

    fn function_pointer(&self, v: &Value) -> String {
        let sig = &v["sig"];
        let inputs = joined(array(&sig["inputs"]), |i| self.ty(&i[1]), ", ");
        format!(
            "{}{}fn({inputs}){}",
            self.higher_ranked(&v["generic_params"]),
            qualifiers(&v["header"]),
            self.output(&sig["output"])
        )
    }

    fn qualified_path(&self, v: &Value) -> String {
        let name = v["name"].as_str().unwrap_or("_");
        let args = self.args(&v["args"]);
        let self_type = &v["self_type"];
        if self_type["generic"].as_str() == Some("Self") || v["trait"].is_null() {
            let self_type = self.ty(self_type);
            return format!("{self_type}::{name}{args}");
        }
        format!(
            "<{} as {}>::{name}{args}",
            self.ty(self_type),
            self.path(&v["trait"])
        )
    }

    /// A path with its generic arguments (`{"path", "id", "args"}`).
    pub(super) fn path(&self, p: &Value) -> String {
        let name = self.path_name(&p["id"], p["path"].as_str());
        format!("{name}{}", self.args(&p["args"]))
    }

    /// The name of the item `id` by the rules of this module's doc, falling back to the path
    /// as the source wrote it.
    pub(super) fn path_name(&self, id: &Value, written: Option<&str>) -> String {
        let summary = key(id).and_then(|k| self.paths.get(&k));
        let segments: Vec<&str> = summary
            .map(|s| array(&s["path"]).iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let own = summary.is_some_and(|s| s["crate_id"].as_u64() == Some(0));
        match (segments.first(), segments.last()) {
            (Some(_), Some(last)) if own => (*last).to_owned(),
            (Some(&("std" | "core" | "alloc")), Some(last))
                if segments
                    .get(1)
                    .is_some_and(|m| PRELUDE.contains(&(*m, *last))) =>
            {
                (*last).to_owned()
            }
            (Some(&("std" | "core" | "alloc")), Some(last)) => match segments.get(1) {
                Some(module) if segments.len() > 2 => format!("std::{module}::{last}"),
                _ => format!("std::{last}"),
            },
            (Some(krate), Some(last)) if krate.starts_with("reimburse_") => {
                format!("{krate}::{last}")
            }
            (Some(_), Some(_)) => segments.join("::"),
            _ => {
                let written = written.unwrap_or("_").trim_start_matches("::");
                written.trim_start_matches("$crate::").to_owned()
            }
        }
    }

    /// Generic arguments: `<T, 'a, Item = U>` or `(A, B) -> C`.
    pub(super) fn args(&self, args: &Value) -> String {
        if let Some(a) = args.get("angle_bracketed") {
            let mut parts: Vec<String> = array(&a["args"]).iter().map(|g| self.arg(g)).collect();
            parts.extend(array(&a["constraints"]).iter().map(|c| self.constraint(c)));
            if parts.is_empty() {
                return String::new();
            }
            return format!("<{}>", parts.join(", "));
        }
        if let Some(p) = args.get("parenthesized") {
            let inputs = joined(array(&p["inputs"]), |t| self.ty(t), ", ");
            return format!("({inputs}){}", self.output(&p["output"]));
        }
        match args.as_str() {
            Some("return_type_notation") => "(..)".into(),
            _ => String::new(),
        }
    }

    fn arg(&self, arg: &Value) -> String {
        if let Some(lifetime) = arg["lifetime"].as_str() {
            lifetime.to_owned()
        } else if let Some(t) = arg.get("type") {
            self.ty(t)
        } else if let Some(c) = arg.get("const") {
            c["expr"].as_str().unwrap_or("_").to_owned()
        } else {
            "_".to_owned()
        }
    }

    /// `Item = T` or `Item: Bound`.
    fn constraint(&self, c: &Value) -> String {
        let head = format!(
            "{}{}",
            c["name"].as_str().unwrap_or("_"),
            self.args(&c["args"])
        );
        let binding = &c["binding"];
        if let Some(term) = binding.get("equality") {
            format!("{head} = {}", self.term(term))
        } else {
            format!("{head}: {}", self.bounds(&binding["constraint"]))
        }
    }

    fn term(&self, term: &Value) -> String {
        match term.get("type") {
            Some(t) => self.ty(t),
            None => term["constant"]["expr"].as_str().unwrap_or("_").to_owned(),
        }
    }

    fn output(&self, output: &Value) -> String {
        if output.is_null() {
            String::new()
        } else {
            format!(" -> {}", self.ty(output))
        }
    }

    /// Bounds joined by ` + `: traits (with `?`, `for<'a>`), lifetimes, `use<…>`.
    pub(super) fn bounds(&self, bounds: &Value) -> String {
        joined(array(bounds), |b| self.bound(b), " + ")
    }

    fn bound(&self, b: &Value) -> String {
        if let Some(t) = b.get("trait_bound") {
            let modifier = match t["modifier"].as_str() {
                Some("maybe") => "?",
                Some("maybe_const") => "[const] ",
                _ => "",
            };
            let higher = self.higher_ranked(&t["generic_params"]);
            return format!("{higher}{modifier}{}", self.path(&t["trait"]));
        }
        if let Some(lifetime) = b["outlives"].as_str() {
            return lifetime.to_owned();
        }
        if let Some(args) = b.get("use") {
            let args = joined(
                array(args),
                |a| {
                    a["lifetime"]
                        .as_str()
                        .or(a["param"].as_str())
                        .unwrap_or("_")
                        .to_owned()
                },
                ", ",
            );
            return format!("use<{args}>");
        }
        "_".to_owned()
    }

    fn higher_ranked(&self, params: &Value) -> String {
        if array(params).is_empty() {
            String::new()
        } else {
            format!("for<{}> ", joined(array(params), |p| self.param(p), ", "))
        }
    }

    /// `<'a, T: Bound = Default, const N: usize>`, leaving out `impl Trait` arguments' own.
    pub(super) fn params(&self, generics: &Value) -> String {
        let params: Vec<String> = array(&generics["params"])
            .iter()
            .filter(|p| !flag(&p["kind"]["type"]["is_synthetic"]))
            .map(|p| self.param(p))
            .collect();
        if params.is_empty() {
            String::new()
        } else {
            format!("<{}>", params.join(", "))
        }
    }

    fn param(&self, p: &Value) -> String {
        let name = p["name"].as_str().unwrap_or("_");
        let kind = &p["kind"];
        if let Some(l) = kind.get("lifetime") {
            let outlives = joined(
                array(&l["outlives"]),
                |o| o.as_str().unwrap_or("_").to_owned(),
                " + ",
            );
            return if outlives.is_empty() {
                name.to_owned()
            } else {
                format!("{name}: {outlives}")
            };
        }
        if let Some(c) = kind.get("const") {
            let default = c["default"]
                .as_str()
                .map_or(String::new(), |d| format!(" = {d}"));
            return format!("const {name}: {}{default}", self.ty(&c["type"]));
        }
        let t = &kind["type"];
        let bounds = self.bounds(&t["bounds"]);
        let bounds = if bounds.is_empty() {
            bounds
        } else {
            format!(": {bounds}")
        };
        let default = if t["default"].is_null() {
            String::new()
        } else {
            format!(" = {}", self.ty(&t["default"]))
        };
        format!("{name}{bounds}{default}")
    }

    /// An impl's constraints as where-predicates (`S: State`), for its methods' lines.
    pub(super) fn impl_bounds(&self, generics: &Value) -> Vec<String> {
        let mut out: Vec<String> = array(&generics["params"])
            .iter()
            .filter(|p| {
                !array(&p["kind"]["type"]["bounds"]).is_empty()
                    || !array(&p["kind"]["lifetime"]["outlives"]).is_empty()
            })
            .map(|p| self.param(p))
            .collect();
        out.extend(
            array(&generics["where_predicates"])
                .iter()
                .map(|w| self.predicate(w)),
        );
        out
    }

    /// ` where A, B` from `outer` (an impl's) and the generics' own predicates.
    pub(super) fn where_clause(&self, generics: &Value, mut outer: Vec<String>) -> String {
        outer.extend(
            array(&generics["where_predicates"])
                .iter()
                .map(|w| self.predicate(w)),
        );
        if outer.is_empty() {
            String::new()
        } else {
            format!(" where {}", outer.join(", "))
        }
    }

    fn predicate(&self, w: &Value) -> String {
        if let Some(b) = w.get("bound_predicate") {
            let higher = self.higher_ranked(&b["generic_params"]);
            return format!(
                "{higher}{}: {}",
                self.ty(&b["type"]),
                self.bounds(&b["bounds"])
            );
        }
        if let Some(l) = w.get("lifetime_predicate") {
            let outlives = joined(
                array(&l["outlives"]),
                |o| o.as_str().unwrap_or("_").to_owned(),
                " + ",
            );
            return format!("{}: {outlives}", l["lifetime"].as_str().unwrap_or("_"));
        }
        if let Some(e) = w.get("eq_predicate") {
            return format!("{} = {}", self.ty(&e["lhs"]), self.term(&e["rhs"]));
        }
        "_".to_owned()
    }

    /// `const async unsafe extern "C" fn path<G>(inputs) -> output where …`.
    pub(super) fn function(&self, path: &str, f: &Value, outer: &[String]) -> String {
        let sig = &f["sig"];
        let mut inputs: Vec<String> = array(&sig["inputs"])
            .iter()
            .map(|i| self.input(i[0].as_str().unwrap_or("_"), &i[1]))
            .collect();
        if flag(&sig["is_c_variadic"]) {
            inputs.push("...".to_owned());
        }
        format!(
            "{}fn {path}{}({}){}{}",
            qualifiers(&f["header"]),
            self.params(&f["generics"]),
            inputs.join(", "),
            self.output(&sig["output"]),
            self.where_clause(&f["generics"], outer.to_vec())
        )
    }

    fn input(&self, name: &str, ty: &Value) -> String {
        if name == "self" {
            if ty["generic"].as_str() == Some("Self") {
                return "self".to_owned();
            }
            let r = &ty["borrowed_ref"];
            if r["type"]["generic"].as_str() == Some("Self") {
                let lifetime = r["lifetime"]
                    .as_str()
                    .map_or(String::new(), |l| format!("{l} "));
                let mutable = if flag(&r["is_mutable"]) { "mut " } else { "" };
                return format!("&{lifetime}{mutable}self");
            }
        }
        format!("{name}: {}", self.ty(ty))
    }
}

/// `const async unsafe extern "C" ` of a function header.
fn qualifiers(header: &Value) -> String {
    let mut out = String::new();
    for (key, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if flag(&header[key]) {
            out.push_str(word);
        }
    }
    match &header["abi"] {
        Value::String(abi) if abi == "Rust" => {}
        Value::String(abi) => out.push_str(&format!("extern \"{abi}\" ")),
        Value::Object(abi) => {
            if let Some(name) = abi.keys().next() {
                out.push_str(&format!("extern \"{name}\" "));
            }
        }
        _ => {}
    }
    out
}
