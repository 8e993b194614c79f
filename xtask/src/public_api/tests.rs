//! The snapshot renderer on a hand-written rustdoc JSON of a tiny crate (format 57's shapes),
//! and the snapshot diff, without documenting the workspace.

use super::render::render;
use super::signature::Names;
use serde_json::{Map, Value, json};

fn item(id: u32, name: Option<&str>, visibility: &str, inner: Value) -> (String, Value) {
    let item = json!({
        "id": id, "crate_id": 0, "name": name, "visibility": visibility,
        "attrs": [], "deprecation": null, "inner": inner,
    });
    (id.to_string(), item)
}

fn path(id: u32, written: &str, args: Value) -> Value {
    json!({"resolved_path": {"path": written, "id": id, "args": args}})
}

fn angle(types: &[Value]) -> Value {
    let args: Vec<Value> = types.iter().map(|t| json!({"type": t})).collect();
    json!({"angle_bracketed": {"args": args, "constraints": []}})
}

fn no_generics() -> Value {
    json!({"params": [], "where_predicates": []})
}

fn function(inputs: Value, output: Value, generics: Value) -> Value {
    json!({"function": {
        "sig": {"inputs": inputs, "output": output, "is_c_variadic": false},
        "generics": generics,
        "header": {"is_const": false, "is_unsafe": false, "is_async": false, "abi": "Rust"},
        "has_body": true,
    }})
}

fn trait_impl(trait_id: u32, trait_name: &str, for_id: u32, for_name: &str) -> Value {
    json!({"impl": {
        "is_unsafe": false, "generics": no_generics(), "provided_trait_methods": [],
        "trait": {"path": trait_name, "id": trait_id, "args": null},
        "for": path(for_id, for_name, Value::Null), "items": [], "is_negative": false,
        "is_synthetic": false, "blanket_impl": null,
    }})
}

/// The paths table: the crate's own items and the std and other-crate ones it names.
fn paths() -> Value {
    json!({
        "2": {"crate_id": 0, "path": ["mini", "Claim"], "kind": "struct"},
        "3": {"crate_id": 0, "path": ["mini", "ClaimRow"], "kind": "struct"},
        "6": {"crate_id": 0, "path": ["mini", "Check"], "kind": "trait"},
        "90": {"crate_id": 2, "path": ["core", "option", "Option"], "kind": "enum"},
        "91": {"crate_id": 3, "path": ["alloc", "vec", "Vec"], "kind": "struct"},
        "92": {"crate_id": 2, "path": ["core", "clone", "Clone"], "kind": "trait"},
        "93": {"crate_id": 3, "path": ["alloc", "string", "String"], "kind": "struct"},
        "94": {"crate_id": 1, "path": ["reimburse_domain", "cents", "Cents"], "kind": "struct"},
        "95": {"crate_id": 2, "path": ["core", "marker", "Send"], "kind": "trait"},
        "96": {"crate_id": 2, "path": ["core", "convert", "From"], "kind": "trait"},
        "97": {"crate_id": 2, "path": ["core", "marker", "StructuralPartialEq"], "kind": "trait"},
    })
}

fn str_ref(lifetime: Option<&str>) -> Value {
    json!({"borrowed_ref": {"lifetime": lifetime, "is_mutable": false, "type": {"primitive": "str"}}})
}

/// `mini`: a glob re-export of a private module, a struct with a private field, methods and
/// impls (auto-trait, blanket and derive plumbing among them), an enum, a trait, a foreign
/// re-export, a const, a generic function and a public module.
fn claim_items() -> Vec<(String, Value)> {
    let claim = path(2, "Claim", Value::Null);
    let claim_row = path(3, "ClaimRow", Value::Null);
    let mut send = trait_impl(95, "Send", 2, "Claim");
    send["impl"]["is_synthetic"] = json!(true);
    let mut blanket = trait_impl(96, "From", 2, "Claim");
    blanket["impl"]["blanket_impl"] = json!({"generic": "T"});
    vec![
        item(
            2,
            Some("Claim"),
            "public",
            json!({"struct": {
                "kind": {"plain": {"fields": [21], "has_stripped_fields": true}},
                "generics": no_generics(), "impls": [30, 31, 32, 33, 34],
            }}),
        ),
        item(
            21,
            Some("rows"),
            "public",
            json!({"struct_field": path(91, "Vec", angle(&[claim_row]))}),
        ),
        item(
            30,
            None,
            "default",
            json!({"impl": {
                "is_unsafe": false, "generics": no_generics(), "provided_trait_methods": [],
                "trait": null, "for": claim, "items": [35, 36], "is_negative": false,
                "is_synthetic": false, "blanket_impl": null,
            }}),
        ),
        item(
            35,
            Some("new"),
            "public",
            function(json!([]), json!({"generic": "Self"}), no_generics()),
        ),
        item(
            36,
            Some("private"),
            "crate",
            function(json!([]), Value::Null, no_generics()),
        ),
        item(31, None, "default", trait_impl(92, "Clone", 2, "Claim")),
        item(32, None, "default", send),
        item(33, None, "default", blanket),
        item(
            34,
            None,
            "default",
            trait_impl(97, "StructuralPartialEq", 2, "Claim"),
        ),
        item(
            3,
            Some("ClaimRow"),
            "public",
            json!({"struct": {
                "kind": "unit", "generics": no_generics(), "impls": [62],
            }}),
        ),
    ]
}

/// An enum, a foreign re-export, a trait and its impl.
fn enum_and_trait_items() -> Vec<(String, Value)> {
    let claim_ref = json!({"borrowed_ref": {"lifetime": null, "is_mutable": false,
        "type": path(2, "crate::Claim", Value::Null)}});
    let self_ref = json!({"borrowed_ref": {"lifetime": null, "is_mutable": false,
        "type": {"generic": "Self"}}});
    vec![
        item(
            4,
            Some("ReportAs"),
            "public",
            json!({"enum": {"generics": no_generics(),
            "has_stripped_variants": false, "variants": [41, 42], "impls": []}}),
        ),
        item(
            41,
            Some("Notice"),
            "default",
            json!({"variant": {"kind": "plain", "discriminant": null}}),
        ),
        item(
            42,
            Some("Field"),
            "default",
            json!({"variant": {"kind": {"tuple": [43]}, "discriminant": null}}),
        ),
        item(
            43,
            Some("0"),
            "default",
            json!({"struct_field": path(93, "String", Value::Null)}),
        ),
        item(
            5,
            None,
            "public",
            json!({"use": {"source": "domain::Cents", "name": "Cents", "id": 94, "is_glob": false}}),
        ),
        item(
            6,
            Some("Check"),
            "public",
            json!({"trait": {"is_auto": false, "is_unsafe": false,
            "is_dyn_compatible": true, "items": [61], "generics": no_generics(), "bounds": [],
            "implementations": [62]}}),
        ),
        item(
            61,
            Some("check"),
            "default",
            function(
                json!([["self", self_ref], ["claim", claim_ref]]),
                json!({"primitive": "bool"}),
                no_generics(),
            ),
        ),
        item(62, None, "default", trait_impl(6, "Check", 3, "ClaimRow")),
    ]
}

/// A const, a module with a type alias, a generic function and a glob re-export of a
/// private module.
fn module_items() -> Vec<(String, Value)> {
    let t_clone = json!({"params": [{"name": "T", "kind": {"type": {"bounds": [
        {"trait_bound": {"trait": {"path": "Clone", "id": 92, "args": null},
        "generic_params": [], "modifier": "none"}}], "default": null, "is_synthetic": false}}}],
        "where_predicates": []});
    let rows = path(
        91,
        "Vec",
        angle(&[json!({"tuple": [{"primitive": "usize"}, str_ref(Some("'static"))]})]),
    );
    vec![
        item(
            7,
            Some("MAX"),
            "public",
            json!({"constant": {"type": {"primitive": "u32"},
            "const": {"expr": "5", "value": "5u32", "is_literal": true}}}),
        ),
        item(
            8,
            Some("nested"),
            "public",
            json!({"module": {"is_crate": false, "items": [81], "is_stripped": false}}),
        ),
        item(
            81,
            Some("Rows"),
            "public",
            json!({"type_alias": {"type": rows, "generics": no_generics()}}),
        ),
        item(
            9,
            Some("first"),
            "public",
            function(
                json!([["items", {"borrowed_ref": {"lifetime": null, "is_mutable": false, "type": {"slice": {"generic": "T"}}}}]]),
                path(90, "Option", angle(&[json!({"generic": "T"})])),
                t_clone,
            ),
        ),
        item(
            1,
            None,
            "public",
            json!({"use": {"source": "money", "name": "money", "id": 10, "is_glob": true}}),
        ),
        item(
            10,
            Some("money"),
            "crate",
            json!({"module": {"is_crate": false, "items": [11], "is_stripped": true}}),
        ),
        item(
            11,
            Some("parse_cents"),
            "public",
            function(
                json!([["text", str_ref(None)]]),
                path(90, "Option", angle(&[json!({"primitive": "i64"})])),
                no_generics(),
            ),
        ),
        item(
            0,
            Some("mini"),
            "public",
            json!({"module": {"is_crate": true,
            "items": [1, 2, 3, 4, 5, 6, 7, 8, 9], "is_stripped": false}}),
        ),
    ]
}

fn mini_crate() -> Value {
    let index: Map<String, Value> = claim_items()
        .into_iter()
        .chain(enum_and_trait_items())
        .chain(module_items())
        .collect();
    json!({"root": 0, "crate_version": null, "includes_private": false, "index": index,
        "paths": paths(), "external_crates": {}, "format_version": 57})
}

#[test]
fn renders_what_is_publicly_reachable_one_line_each() {
    let lines = render(&mini_crate()).unwrap_or_else(|e| panic!("{e:#}"));
    let expected = [
        "pub use mini::Cents = reimburse_domain::Cents",
        "pub trait mini::Check",
        "pub fn mini::Check::check(&self, claim: &Claim) -> bool",
        "impl Check for ClaimRow",
        "pub struct mini::Claim { /* private fields */ }",
        "pub fn mini::Claim::new() -> Self",
        "pub mini::Claim::rows: Vec<ClaimRow>",
        "impl Clone for Claim",
        "pub struct mini::ClaimRow;",
        "pub const mini::MAX: u32",
        "pub enum mini::ReportAs",
        "pub enum variant mini::ReportAs::Field(String)",
        "pub enum variant mini::ReportAs::Notice",
        "pub fn mini::first<T: Clone>(items: &[T]) -> Option<T>",
        "pub mod mini::nested",
        "pub type mini::nested::Rows = Vec<(usize, &'static str)>",
        "pub fn mini::parse_cents(text: &str) -> Option<i64>",
    ];
    assert_eq!(lines, expected, "got:\n{}", lines.join("\n"));
}

#[test]
fn a_changed_signature_changes_its_line() {
    let mut doc = mini_crate();
    doc["index"]["11"]["inner"]["function"]["sig"]["output"] = json!({"primitive": "i64"});
    let lines = render(&doc).unwrap_or_default();
    assert!(lines.contains(&"pub fn mini::parse_cents(text: &str) -> i64".to_owned()));
}

#[test]
fn types_are_written_as_rust() {
    let index = Map::new();
    let paths: Map<String, Value> = json!({
        "1": {"crate_id": 5, "path": ["std", "io", "error", "Error"], "kind": "struct"},
        "2": {"crate_id": 2, "path": ["core", "ops", "function", "Fn"], "kind": "trait"},
        "3": {"crate_id": 2, "path": ["core", "marker", "Send"], "kind": "trait"},
        "4": {"crate_id": 7, "path": ["serde_json", "value", "Value"], "kind": "enum"},
        "5": {"crate_id": 5, "path": ["std", "io", "error", "Result"], "kind": "type_alias"},
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let names = Names {
        index: &index,
        paths: &paths,
    };
    let fn_bound = json!({"trait_bound": {"trait": {"path": "Fn", "id": 2, "args": {"parenthesized":
        {"inputs": [{"primitive": "u8"}], "output": {"primitive": "u8"}}}},
        "generic_params": [], "modifier": "none"}});
    let cases = [
        (
            json!({"dyn_trait": {"traits": [{"trait": {"path": "Fn", "id": 2, "args": {"parenthesized":
            {"inputs": [str_ref(None)], "output": null}}}, "generic_params": []},
            {"trait": {"path": "Send", "id": 3, "args": null}, "generic_params": []}],
            "lifetime": "'a"}}),
            "dyn Fn(&str) + Send + 'a",
        ),
        (json!({"impl_trait": [fn_bound]}), "impl Fn(u8) -> u8"),
        (
            json!({"function_pointer": {"sig": {"inputs": [["_", {"primitive": "u8"}]],
            "output": {"raw_pointer": {"is_mutable": true, "type": {"primitive": "u8"}}},
            "is_c_variadic": false}, "generic_params": [], "header": {"is_const": false,
            "is_unsafe": true, "is_async": false, "abi": {"C": {"unwind": false}}}}}),
            "unsafe extern \"C\" fn(u8) -> *mut u8",
        ),
        (
            json!({"array": {"type": {"tuple": [{"primitive": "u8"}]}, "len": "4"}}),
            "[(u8,); 4]",
        ),
        (path(1, "io::Error", Value::Null), "std::io::Error"),
        (
            path(5, "Result", angle(&[json!({"tuple": []})])),
            "std::io::Result<()>",
        ),
        (path(4, "Value", Value::Null), "serde_json::value::Value"),
        (
            json!({"qualified_path": {"name": "Err", "args": null, "self_type": {"generic": "Self"},
            "trait": {"path": "", "id": 9, "args": null}}}),
            "Self::Err",
        ),
    ];
    for (ty, expected) in cases {
        assert_eq!(names.ty(&ty), expected);
    }
}

#[test]
fn the_diff_names_removed_and_added_lines_where_they_stand() {
    let old = "# header\npub struct a::A\npub a::A::x: u8\npub fn a::f()\n";
    let new = "# header\npub struct a::A\npub a::A::x: u16\npub fn a::f()\npub fn a::g()\n";
    assert_eq!(
        super::diff(old, new),
        "-pub a::A::x: u8\n+pub a::A::x: u16\n+pub fn a::g()\n"
    );
    assert_eq!(super::diff(old, old), "");
    assert_eq!(
        super::diff("a\nb\n", "b\na\n"),
        "(the same lines in another order)\n"
    );
}
