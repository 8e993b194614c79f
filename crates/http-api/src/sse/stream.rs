//! One client's SSE stream: the run's log lines as they are appended, then `done`, then close.

use super::SseSettings;
use super::frame::{data_frame, done_json, line_json};
use super::hub::Subscription;
use actix_web::web::Bytes;
use domain::FailureResult;
use session_store::{LogFile, RESULT_FILE, RunOffsets, Session, read_new_lines};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep};

/// Frames buffered per client before the producer waits for the socket.
const CHANNEL_DEPTH: usize = 64;

/// Starts the producer task of one stream and returns the receiving end as the response body.
pub(crate) fn event_stream(
    session: Session,
    subscription: Subscription,
    settings: SseSettings,
    start: RunOffsets,
) -> tokio_stream_shim::ReceiverStream {
    let (sender, receiver) = mpsc::channel(CHANNEL_DEPTH);
    tokio::spawn(produce(session, subscription, settings, start, sender));
    tokio_stream_shim::ReceiverStream(receiver)
}

/// Sends every complete line after `offsets`, then `done` once result.json exists. Ends when
/// the client goes away (a send fails), on `done`, or at the timeout.
async fn produce(
    session: Session,
    mut subscription: Subscription,
    settings: SseSettings,
    mut offsets: RunOffsets,
    sender: mpsc::Sender<Bytes>,
) {
    let deadline = Instant::now() + settings.timeout;
    let mut last_sent = Instant::now();
    if sender
        .send(Bytes::from_static(b"retry: 1000\n\n"))
        .await
        .is_err()
    {
        return;
    }
    loop {
        // Looked at before draining: every line written before result.json is then sent
        // before `done`, because the job writes its logs before its result.
        let finished = session.path().join(RESULT_FILE).is_file();
        match send_new_lines(&session, &mut offsets, &sender).await {
            Ok(true) => last_sent = Instant::now(),
            Ok(false) => {}
            Err(Closed) => return,
        }
        if finished && let Some(result) = read_result(&session) {
            let frame = data_frame(&offsets.to_event_id(), &done_json(result));
            let _ = sender.send(Bytes::from(frame)).await;
            return;
        }
        let now = Instant::now();
        if now >= deadline {
            let _ = sender.send(Bytes::from_static(b": timeout\n\n")).await;
            return;
        }
        if now.duration_since(last_sent) >= settings.keepalive {
            if sender
                .send(Bytes::from_static(b": keepalive\n\n"))
                .await
                .is_err()
            {
                return;
            }
            last_sent = now;
        }
        let wait = settings.poll_interval.min(deadline - now);
        tokio::select! {
            changed = subscription.changes.changed() => {
                if changed.is_err() {
                    sleep(wait).await;
                }
            }
            () = sleep(wait) => {}
        }
    }
}

struct Closed;

/// Sends the new lines of the four logs; true when anything was sent.
async fn send_new_lines(
    session: &Session,
    offsets: &mut RunOffsets,
    sender: &mpsc::Sender<Bytes>,
) -> Result<bool, Closed> {
    let mut sent = false;
    for log in LogFile::ALL {
        let chunk = match read_new_lines(&session.log_path(log), offsets.get(log)) {
            Ok(chunk) => chunk,
            Err(error) => {
                tracing::warn!(session = %session.id(), "cannot read {}: {error}", log.file_name());
                continue;
            }
        };
        for (line, end) in chunk.lines {
            offsets.set(log, end);
            let frame = data_frame(&offsets.to_event_id(), &line_json(log, &line));
            sender.send(Bytes::from(frame)).await.map_err(|_| Closed)?;
            sent = true;
        }
        offsets.set(log, chunk.next_offset);
    }
    Ok(sent)
}

/// result.json as the `done` payload. `None` when it vanished meanwhile (a new run began); a
/// damaged file still ends the stream, with an error result, rather than hang the client.
fn read_result(session: &Session) -> Option<serde_json::Value> {
    match session.read_result() {
        Ok(result) => result,
        Err(error) => Some(FailureResult::new(format!("result.json 无法读取：{error}")).to_json()),
    }
}

/// A `Stream` over an mpsc receiver, so the response body needs no extra crate.
pub(crate) mod tokio_stream_shim {
    use actix_web::web::Bytes;
    use std::convert::Infallible;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use tokio::sync::mpsc;

    #[derive(Debug)]
    pub(crate) struct ReceiverStream(pub(crate) mpsc::Receiver<Bytes>);

    impl futures_util::Stream for ReceiverStream {
        type Item = Result<Bytes, Infallible>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.0.poll_recv(cx).map(|frame| frame.map(Ok))
        }
    }
}
