//! A running task's life in the store: watched until it outlives its time to live, its
//! questions and progress written as they change, and its end written once. The wire
//! shapes stay in `protocol/task_methods`, which hands over a question's JSON and the end in
//! this crate's terms ([`Ending`]).

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::call::rounds::Question;
use crate::outcome::error::INTERNAL_ERROR;
use crate::server::tasks::{Lookup, Record, Running, Status, Tasks, millis, now_ms};

/// A question as the protocol writes it in a task's record, or why it cannot be.
pub(crate) type Written = fn(&Question) -> Result<Value, String>;

/// How a task's body ended.
#[derive(Debug)]
pub(crate) enum Ending {
    /// The tool's result, as the protocol writes it.
    Completed(Value),
    /// A JSON-RPC error, or a crash, with the message the client may read.
    Failed { code: i32, message: String },
    /// The body stopped because the task was cancelled.
    Cancelled,
}

impl Tasks {
    /// Watches the running task `id` (on a tokio task of its own, so that a body that
    /// holds its thread does not stop it): cancels it once it outlives its time to live
    /// (its record is gone, and nothing could answer or cancel it any more), and, with a
    /// shared store, looks there for answers and a cancellation that came through other
    /// processes and renews the task's lease.
    pub(crate) async fn watch(self: Arc<Self>, id: String, running: Running, written: Written) {
        let settings = &self.settings;
        let deadline = tokio::time::Instant::now() + settings.ttl;
        let every = settings.poll_interval.min(settings.lease / 3);
        let every = every.max(std::time::Duration::from_millis(10));
        loop {
            let next = match self.store.shared() {
                true => (tokio::time::Instant::now() + every).min(deadline),
                false => deadline,
            };
            tokio::time::sleep_until(next).await;
            if tokio::time::Instant::now() >= deadline {
                tracing::warn!(task = %id, "task cancelled: it outlived its time to live");
                running.cancel.cancel();
                return;
            }
            self.look_in_store(&id, &running, written).await;
            if running.cancel.is_cancelled() {
                return;
            }
        }
    }

    /// Takes the answers other processes kept for the running task `id`, cancels it when
    /// another process cancelled it, and renews its lease.
    async fn look_in_store(&self, id: &str, running: &Running, written: Written) {
        match self.store.take_answers(id).await {
            Ok(answers) if !answers.is_empty() => {
                running.inbox.give(answers);
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(task = id, %error, "the task's answers were not read"),
        }
        // Ended elsewhere (cancelled, or failed as abandoned) or gone: the body stops.
        match self.store.get(id).await {
            Ok(Lookup::Found(record)) if !record.status.is_terminal() => {}
            Ok(Lookup::Found(_) | Lookup::Expired(_) | Lookup::Unknown) => {
                running.cancel.cancel();
                return;
            }
            Err(error) => tracing::warn!(task = id, %error, "the task's record was not read"),
        }
        self.write_progress(id, running, written).await;
    }

    /// Writes what the running task's inbox holds to its record: the questions waiting
    /// (then the task waits for input) and the progress message; renews its lease.
    pub(crate) async fn write_progress(&self, id: &str, running: &Running, written: Written) {
        let _writing = running.writing.lock().await;
        let Ok(Lookup::Found(mut record)) = self.store.get(id).await else {
            return;
        };
        if record.status.is_terminal() {
            return;
        }
        let mut requests = Map::new();
        for (key, question) in running.inbox.waiting() {
            match written(&question) {
                Ok(request) => {
                    requests.insert(key, request);
                }
                Err(why) => tracing::warn!(task = id, %why, "an input request was not written"),
            }
        }
        record.status = if requests.is_empty() {
            Status::Working
        } else {
            Status::InputRequired
        };
        record.input_requests = requests;
        record.message = running.inbox.message();
        record.updated_ms = now_ms();
        record.lease_until_ms = record
            .updated_ms
            .saturating_add(millis(self.settings.lease));
        if let Err(error) = self.store.put(*record).await {
            tracing::warn!(task = id, %error, "the task's progress was not stored");
        }
    }

    /// Writes the end of the task `id`, unless it ended already (cancelled through any
    /// process, or failed as abandoned), which stays. A result larger than the server
    /// keeps fails the task, saying both sizes.
    pub(crate) async fn end(&self, id: &str, ending: Ending) {
        let Ok(Lookup::Found(mut record)) = self.store.get(id).await else {
            tracing::warn!(task = id, "the task ended after its record was dropped");
            return;
        };
        if record.status.is_terminal() {
            let status = record.status.as_str();
            tracing::info!(task = id, tool = record.tool, status, "task ended");
            return;
        }
        record.input_requests = Map::new();
        match ending {
            Ending::Completed(result) => {
                let size = serde_json::to_vec(&result).map_or(0, |bytes| bytes.len());
                let limit = self.settings.max_result_bytes;
                if size > limit {
                    tracing::warn!(task = id, size, limit, "a task's result is too large");
                    let message = format!(
                        "the task's result is {size} bytes of JSON, over the {limit} bytes a task \
                         may keep (Server::task_result_limit): return less, or a link to where \
                         the result is"
                    );
                    failed(&mut record, INTERNAL_ERROR, message);
                } else {
                    record.status = Status::Completed;
                    record.result = Some(result);
                }
            }
            Ending::Failed { code, message } => failed(&mut record, code, message),
            Ending::Cancelled => record.status = Status::Cancelled,
        }
        record.updated_ms = now_ms();
        let (status, tool) = (record.status, record.tool.clone());
        match self.store.put(*record).await {
            Ok(_) => tracing::info!(task = id, tool, status = status.as_str(), "task ended"),
            Err(error) => tracing::error!(task = id, %error, "the task's end was not stored"),
        }
    }
}

fn failed(record: &mut Record, code: i32, message: String) {
    record.status = Status::Failed;
    record.message = Some(message.clone());
    record.error = Some(serde_json::json!({ "code": code, "message": message }));
}
