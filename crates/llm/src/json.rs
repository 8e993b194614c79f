//! JSON answers: the instructions sent with a schema, and the extraction of the JSON value
//! from what a model actually writes (code fences, leading prose, `<think>` blocks).

use serde_json::Value;

/// How many `{`/`[` positions are tried before giving up, to bound the work on long prose.
const MAX_CANDIDATES: usize = 64;

/// The system-prompt paragraph asking for JSON of `schema`. It names "JSON" explicitly, which
/// OpenAI's `json_object` mode requires of the prompt.
pub(crate) fn instructions(schema: &Value) -> String {
    let schema = serde_json::to_string_pretty(schema).unwrap_or_else(|_| schema.to_string());
    format!(
        "Reply with exactly one JSON value and nothing else: no explanation, no Markdown code \
         fence. The JSON must conform to this JSON Schema:\n{schema}"
    )
}

/// The follow-up user turn after a rejected answer, quoting why it was rejected.
pub(crate) fn correction(reason: &str) -> String {
    format!(
        "Your previous answer was rejected: {reason}. Answer again with only the corrected JSON, \
         conforming to the JSON Schema given in the system prompt; no prose, no code fence."
    )
}

/// Finds the JSON value in an answer: the whole text, else a fenced block, else the first
/// object or array that parses. The error says why nothing was found (for the correction).
pub(crate) fn extract(answer: &str) -> Result<Value, String> {
    let text = strip_think(answer);
    let text = text.trim();
    let whole_error = match serde_json::from_str::<Value>(text) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    if let Some(fenced) = fenced_block(text)
        && let Ok(value) = serde_json::from_str::<Value>(fenced.trim())
    {
        return Ok(value);
    }
    let mut first_error = None;
    for (start, _) in text
        .char_indices()
        .filter(|(_, c)| matches!(c, '{' | '['))
        .take(MAX_CANDIDATES)
    {
        let tail = text.get(start..).unwrap_or_default();
        let mut values = serde_json::Deserializer::from_str(tail).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => return Ok(value),
            Some(Err(e)) => {
                first_error.get_or_insert(e);
            }
            None => {}
        }
    }
    Err(match (text.is_empty(), first_error) {
        (true, _) => "the answer is empty".to_owned(),
        (false, Some(e)) => format!("the answer is not valid JSON ({e})"),
        (false, None) => format!("the answer contains no JSON object ({whole_error})"),
    })
}

/// Drops `<think>…</think>` blocks that reasoning models served without a reasoning parser
/// leave in the content; an unclosed one swallows the rest.
fn strip_think(answer: &str) -> String {
    let mut out = String::with_capacity(answer.len());
    let mut rest = answer;
    while let Some(open) = rest.find("<think>") {
        out.push_str(rest.get(..open).unwrap_or_default());
        let after = rest.get(open..).unwrap_or_default();
        match after.find("</think>") {
            Some(close) => rest = after.get(close + "</think>".len()..).unwrap_or_default(),
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The body of the first Markdown code fence (any info string, e.g. ```json).
fn fenced_block(text: &str) -> Option<&str> {
    let open = text.find("```")?;
    let after = text.get(open + 3..)?;
    let body_start = after.find('\n')? + 1;
    let body = after.get(body_start..)?;
    let close = body.find("```").unwrap_or(body.len());
    body.get(..close)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_fenced_and_prose_wrapped_answers() {
        assert_eq!(extract(" {\"a\":1} "), Ok(json!({"a":1})));
        assert_eq!(
            extract("好的，结果如下：\n```json\n{\"a\": [1, 2]}\n```\n希望有帮助"),
            Ok(json!({"a":[1,2]}))
        );
        assert_eq!(extract("```\n[{\"x\":\"y\"}]\n```"), Ok(json!([{"x":"y"}])));
        assert_eq!(
            extract("结论 {not json} 然后 {\"ok\": true} 以上"),
            Ok(json!({"ok": true}))
        );
        assert_eq!(
            extract("<think>考虑 {\"ok\": false}</think>\n{\"ok\": true}"),
            Ok(json!({"ok": true}))
        );
    }

    #[test]
    fn failures_explain_themselves() {
        let err = extract("抱歉，我无法判断").unwrap_err();
        assert!(err.contains("no JSON"), "{err}");
        let err = extract("{\"amount\": 12.5,, }").unwrap_err();
        assert!(err.contains("not valid JSON"), "{err}");
        assert_eq!(extract("  ").unwrap_err(), "the answer is empty");
        assert_eq!(
            extract("<think>only thinking").unwrap_err(),
            "the answer is empty"
        );
    }

    #[test]
    fn prompts_mention_json_and_quote_the_reason() {
        assert!(instructions(&json!({"type":"object"})).contains("JSON Schema"));
        assert!(correction("$.a: expected number, got string").contains("$.a: expected number"));
    }
}
