//! The client's private tokio runtime: one current-thread runtime on its own thread.
//!
//! Callers are plain threads, but they may also be tokio's blocking threads or (by mistake)
//! async tasks; `Runtime::block_on` would panic in the latter. Running the calls on a thread
//! of our own and handing events back over a channel works from anywhere, keeps the HTTP
//! connection pool alive between calls and costs one idle thread. Dropping the last handle
//! stops the thread.

use crate::LlmError;
use std::future::Future;
use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

#[derive(Debug)]
pub(crate) struct RuntimeThread {
    handle: Handle,
    /// Dropped with the client, which ends the runtime thread's `block_on`.
    _stop: oneshot::Sender<()>,
}

impl RuntimeThread {
    pub(crate) fn start() -> Result<Self, LlmError> {
        let (handle_tx, handle_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("llm-runtime".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        tracing::error!(error = %e, "cannot build the LLM client runtime");
                        return;
                    }
                };
                if handle_tx.send(runtime.handle().clone()).is_ok() {
                    // Either the stop signal or its sender's drop ends the wait.
                    let _ = runtime.block_on(stop_rx);
                }
            })
            .map_err(|_| LlmError::Internal)?;
        let handle = handle_rx.recv().map_err(|_| LlmError::Internal)?;
        Ok(Self {
            handle,
            _stop: stop_tx,
        })
    }

    pub(crate) fn spawn<F>(&self, future: F) -> JoinHandle<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.handle.spawn(future)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_tasks_and_stops_on_drop() {
        let runtime = RuntimeThread::start().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            tx.send(42).unwrap();
        });
        assert_eq!(rx.recv().unwrap(), 42);
        drop(runtime);
    }

    #[test]
    fn can_be_dropped_inside_an_async_context() {
        let outer = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        outer.block_on(async {
            let runtime = RuntimeThread::start().unwrap();
            drop(runtime);
        });
    }
}
