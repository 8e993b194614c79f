//! Where the streamed answer goes while it arrives: the `StreamSink` trait and its events.

use domain::{Event, LlmPhase};

/// Receives the `llm_stream` events of a call, on the calling thread, in order. The events
/// are always [`Event::LlmStream`].
///
/// Every call makes one or more attempts; each attempt sends `start`, then `reasoning` and
/// `chunk` events as the deltas arrive, then exactly one of `end` (this answer was accepted)
/// or `error` (its text says what failed and whether a retry follows). The last event of a
/// call is `end` when it returned `Ok` and `error` when it returned `Err`. Every provider
/// delta becomes its own event, uncoalesced: the sink appends them to a log and the browser
/// renders them as they come, and providers already batch tokens.
pub trait StreamSink {
    /// Takes one `llm_stream` event as it happens.
    fn on_event(&mut self, event: &Event);
}

/// Discards everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullSink;

impl StreamSink for NullSink {
    fn on_event(&mut self, _event: &Event) {}
}

/// Keeps every event, for tests and for callers that want the transcript afterwards.
#[derive(Debug, Clone, Default)]
pub struct CollectSink {
    /// The events, in order.
    pub events: Vec<Event>,
}

impl StreamSink for CollectSink {
    fn on_event(&mut self, event: &Event) {
        self.events.push(event.clone());
    }
}

impl CollectSink {
    /// `(phase, text)` pairs, handy in assertions.
    pub fn phases(&self) -> Vec<(LlmPhase, Option<String>)> {
        self.events
            .iter()
            .filter_map(|event| match event {
                Event::LlmStream { phase, text } => Some((*phase, text.clone())),
                _ => None,
            })
            .collect()
    }
}

/// Any closure taking an event is a sink.
impl<F: FnMut(&Event)> StreamSink for F {
    fn on_event(&mut self, event: &Event) {
        self(event);
    }
}

pub(crate) fn event(phase: LlmPhase, text: Option<String>) -> Event {
    Event::LlmStream { phase, text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closures_and_collectors_are_sinks() {
        let mut seen = 0;
        let mut closure = |_: &Event| seen += 1;
        closure.on_event(&event(LlmPhase::Start, None));
        assert_eq!(seen, 1);
        let mut collect = CollectSink::default();
        collect.on_event(&event(LlmPhase::Chunk, Some("a".into())));
        NullSink.on_event(&event(LlmPhase::End, None));
        assert_eq!(collect.phases(), vec![(LlmPhase::Chunk, Some("a".into()))]);
    }
}
