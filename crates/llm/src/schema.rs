//! A small JSON Schema validator for the subset the project's prompts use.
//!
//! Supported keywords: `type` (a name or a list of names among object, array, string,
//! number, integer, boolean, null), `enum`, `const`, `properties`, `required`,
//! `additionalProperties` (`false` or a schema), `items` (one schema), `minItems`,
//! `maxItems`, `minimum`, `maximum`. Other keywords (`description`, `title`, `format`…) are
//! ignored, so a schema written for a provider's strict mode still works here.

use serde_json::{Map, Value};
use std::fmt;

/// At most this many violations are reported: enough for a corrective prompt.
const MAX_ERRORS: usize = 10;

const TYPE_NAMES: [&str; 7] = [
    "object", "array", "string", "number", "integer", "boolean", "null",
];

/// One violation, located by a JSONPath-like path (`$.items[2].amount`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// Where, e.g. `$.items[2].amount`.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Validates `value` against `schema`, returning every violation found (up to ten).
pub fn validate(schema: &Value, value: &Value) -> Result<(), Vec<SchemaError>> {
    let mut errors = Vec::new();
    walk(schema, value, "$", &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks that `schema` only uses type names the validator knows, so that a typo in a
/// prompt's schema fails at once instead of rejecting every answer.
pub fn check_schema(schema: &Value) -> Result<(), String> {
    let Value::Object(map) = schema else {
        return match schema {
            Value::Bool(_) => Ok(()),
            _ => Err("a schema must be an object".into()),
        };
    };
    if let Some(types) = map.get("type") {
        let names: Vec<&Value> = match types {
            Value::Array(list) => list.iter().collect(),
            other => vec![other],
        };
        for name in names {
            match name.as_str() {
                Some(n) if TYPE_NAMES.contains(&n) => {}
                _ => return Err(format!("unsupported type {name} in schema")),
            }
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for sub in props.values() {
            check_schema(sub)?;
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = map.get(key) {
            check_schema(sub)?;
        }
    }
    Ok(())
}

fn walk(schema: &Value, value: &Value, path: &str, errors: &mut Vec<SchemaError>) {
    if errors.len() >= MAX_ERRORS {
        return;
    }
    let schema = match schema {
        Value::Object(map) => map,
        Value::Bool(false) => {
            push(errors, path, "no value is allowed here".into());
            return;
        }
        _ => return,
    };
    if let Some(types) = schema.get("type")
        && !type_matches(types, value)
    {
        push(
            errors,
            path,
            format!("expected {}, got {}", type_list(types), type_name(value)),
        );
        // The other keywords would only repeat the same mistake.
        return;
    }
    if let Some(Value::Array(allowed)) = schema.get("enum")
        && !allowed.contains(value)
    {
        let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
        push(
            errors,
            path,
            format!("{value} is not one of [{}]", list.join(", ")),
        );
    }
    if let Some(expected) = schema.get("const")
        && expected != value
    {
        push(errors, path, format!("must be {expected}"));
    }
    match value {
        Value::Object(object) => walk_object(schema, object, path, errors),
        Value::Array(items) => walk_array(schema, items, path, errors),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
                && x < min
            {
                push(errors, path, format!("{n} is below the minimum {min}"));
            }
            if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
                && x > max
            {
                push(errors, path, format!("{n} is above the maximum {max}"));
            }
        }
        _ => {}
    }
}

fn walk_object(
    schema: &Map<String, Value>,
    object: &Map<String, Value>,
    path: &str,
    errors: &mut Vec<SchemaError>,
) {
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                push(
                    errors,
                    path,
                    format!("missing required property \"{name}\""),
                );
            }
        }
    }
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => Some(p),
        _ => None,
    };
    for (name, sub_value) in object {
        let sub_path = format!("{path}.{name}");
        match properties.and_then(|p| p.get(name)) {
            Some(sub_schema) => walk(sub_schema, sub_value, &sub_path, errors),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    push(errors, path, format!("unexpected property \"{name}\""));
                }
                Some(extra @ Value::Object(_)) => walk(extra, sub_value, &sub_path, errors),
                _ => {}
            },
        }
    }
}

fn walk_array(
    schema: &Map<String, Value>,
    items: &[Value],
    path: &str,
    errors: &mut Vec<SchemaError>,
) {
    let len = items.len() as u64;
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
        && len < min
    {
        push(
            errors,
            path,
            format!("needs at least {min} items, has {len}"),
        );
    }
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
        && len > max
    {
        push(
            errors,
            path,
            format!("allows at most {max} items, has {len}"),
        );
    }
    if let Some(item_schema) = schema.get("items") {
        for (index, item) in items.iter().enumerate() {
            walk(item_schema, item, &format!("{path}[{index}]"), errors);
        }
    }
}

fn push(errors: &mut Vec<SchemaError>, path: &str, message: String) {
    if errors.len() < MAX_ERRORS {
        errors.push(SchemaError {
            path: path.to_owned(),
            message,
        });
    }
}

fn type_matches(types: &Value, value: &Value) -> bool {
    match types {
        Value::String(name) => is_type(name, value),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|name| is_type(name, value)),
        // A malformed `type` constrains nothing; `check_schema` reports it up front.
        _ => true,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match (name, value) {
        ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        _ => false,
    }
}

fn type_list(types: &Value) -> String {
    match types {
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        Value::String(name) => name.clone(),
        other => other.to_string(),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn payment_schema() -> Value {
        json!({
            "type": "object",
            "required": ["complete", "amount", "items"],
            "additionalProperties": false,
            "properties": {
                "complete": {"type": "boolean"},
                "amount": {"type": ["number", "null"], "minimum": 0},
                "channel": {"enum": ["wechat", "alipay", "card"]},
                "count": {"type": "integer"},
                "items": {"type": "array", "maxItems": 3, "items": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"}}
                }}
            }
        })
    }

    #[test]
    fn accepts_valid_documents() {
        let schema = payment_schema();
        let value = json!({"complete": true, "amount": null, "channel": "alipay", "count": 2.0,
                           "items": [{"name": "餐费", "extra": 1}]});
        assert_eq!(validate(&schema, &value), Ok(()));
        assert_eq!(check_schema(&schema), Ok(()));
    }

    #[test]
    fn reports_each_violation_with_its_path() {
        let value = json!({"amount": "12", "channel": "cash", "count": 1.5,
                           "items": [{"name": 3}, {}], "note": "x"});
        let errors: Vec<String> = validate(&payment_schema(), &value)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            errors.contains(&"$: missing required property \"complete\"".to_owned()),
            "{errors:?}"
        );
        assert!(
            errors.contains(&"$.amount: expected number or null, got string".to_owned()),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with("$.channel: \"cash\" is not one of")),
            "{errors:?}"
        );
        assert!(
            errors.contains(&"$.count: expected integer, got number".to_owned()),
            "{errors:?}"
        );
        assert!(
            errors.contains(&"$.items[0].name: expected string, got number".to_owned()),
            "{errors:?}"
        );
        assert!(
            errors.contains(&"$.items[1]: missing required property \"name\"".to_owned()),
            "{errors:?}"
        );
        assert!(
            errors.contains(&"$: unexpected property \"note\"".to_owned()),
            "{errors:?}"
        );
    }

    #[test]
    fn bounds_and_wrong_root() {
        let schema = payment_schema();
        let value = json!({"complete": false, "amount": -1, "items": [{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]});
        let errors = validate(&schema, &value).unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        let errors = validate(&schema, &json!([1])).unwrap_err();
        assert_eq!(errors[0].to_string(), "$: expected object, got array");
    }

    #[test]
    fn schema_typos_are_caught() {
        assert!(
            check_schema(&json!({"type":"object","properties":{"a":{"type":"float"}}})).is_err()
        );
        assert!(check_schema(&json!({"type":["string", "nul"]})).is_err());
        assert!(check_schema(&json!("object")).is_err());
    }
}
