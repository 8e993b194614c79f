//! Turning log lines and results into SSE frames (`id:` + `data:` + blank line).

use domain::{Event, LogLine};
use serde::de::IgnoredAny;
use session_store::LogFile;

/// One SSE frame carrying a JSON event, with the resumable id.
pub(crate) fn data_frame(id: &str, json: &str) -> String {
    // JSON has no raw newlines, so one `data:` line always suffices.
    format!("id: {id}\ndata: {json}\n\n")
}

/// The JSON text to send for one line of a log. session.log lines become `{type: "log", …}`;
/// event-log lines go out as they are, unless a line is not JSON (a damaged file), which is
/// wrapped as a log message instead of breaking the client's parser.
pub(crate) fn line_json(log: LogFile, line: &str) -> String {
    let as_log = |line: &str| {
        serde_json::to_string(&Event::Log(LogLine::parse(line))).unwrap_or_else(|_| "{}".to_owned())
    };
    match log {
        LogFile::Session => as_log(line),
        _ if serde_json::from_str::<IgnoredAny>(line).is_ok() => line.to_owned(),
        _ => as_log(line),
    }
}

/// The `done` event for a result.
pub(crate) fn done_json(result: serde_json::Value) -> String {
    serde_json::to_string(&Event::Done { result }).unwrap_or_else(|_| {
        r#"{"type":"done","result":{"ok":false,"error":"result.json 无法读取"}}"#.to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_lines_pass_through_and_plain_lines_are_wrapped() {
        let line = r#"{"type":"file_progress","file":"a.pdf","status":"processing"}"#;
        assert_eq!(line_json(LogFile::FileEvents, line), line);
        let wrapped: serde_json::Value = serde_json::from_str(&line_json(
            LogFile::Session,
            "2026-01-01T00:00:00Z INFO bot: 登录",
        ))
        .unwrap();
        assert_eq!(wrapped["type"], "log");
        assert_eq!(wrapped["module"], "bot");
        assert_eq!(wrapped["message"], "登录");
        let damaged: serde_json::Value =
            serde_json::from_str(&line_json(LogFile::LlmStream, "{broken")).unwrap();
        assert_eq!(damaged["type"], "log");
        assert_eq!(data_frame("1-2-3-4", "{}"), "id: 1-2-3-4\ndata: {}\n\n");
    }
}
