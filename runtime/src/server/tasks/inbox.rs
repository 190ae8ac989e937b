//! The questions of a running task: what its body asked (`ctx.elicit`, `ctx.sample`,
//! `ctx.roots`) and waits on, under a key the client answers by, and the answers
//! `tasks/update` brought.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::Value;
use tokio::sync::Notify;

use crate::call::rounds::Question;

/// A running task's questions and their answers.
#[derive(Debug, Default)]
pub(crate) struct Inbox {
    state: Mutex<State>,
    /// Wakes the task's runner when a question is asked or answered, or the progress
    /// message changes.
    changed: Notify,
    /// Wakes every question waiting for its answer when answers come.
    answered: Notify,
}

#[derive(Debug, Default)]
struct State {
    /// How many questions of each kind were asked, for the next key.
    counts: BTreeMap<&'static str, u32>,
    /// The questions waiting, in the order asked.
    waiting: Vec<(String, Question)>,
    /// Answers not yet taken, by key.
    answers: BTreeMap<String, Value>,
    /// The tool's last progress message.
    message: Option<String>,
}

impl Inbox {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Asks `question`: its key, the one the tool gave it or `elicitation-1`,
    /// `sampling-2`, ... in the order asked.
    pub(crate) fn ask(&self, question: Question) -> String {
        let key = {
            let mut state = self.state();
            let key = match question.given_key() {
                Some(key) => key.to_owned(),
                None => {
                    let kind = question.kind();
                    let count = state.counts.entry(kind).or_default();
                    *count += 1;
                    format!("{kind}-{count}")
                }
            };
            state.waiting.push((key.clone(), question));
            key
        };
        self.changed.notify_one();
        key
    }

    /// The answer to the question `key`, once the client gives it.
    pub(crate) async fn answer(&self, key: &str) -> Value {
        loop {
            // Made before the look, so that answers given after it wake it.
            let notified = self.answered.notified();
            if let Some(answer) = self.state().answers.remove(key) {
                return answer;
            }
            notified.await;
        }
    }

    /// The client's answers: each to a waiting question is taken, and that question no
    /// longer waits; an answer to no waiting question is ignored. Answers whether any
    /// was taken.
    pub(crate) fn give(&self, answers: impl IntoIterator<Item = (String, Value)>) -> bool {
        let mut taken = false;
        {
            let mut state = self.state();
            for (key, answer) in answers {
                let Some(at) = state
                    .waiting
                    .iter()
                    .position(|(waiting, _)| *waiting == key)
                else {
                    continue;
                };
                state.waiting.remove(at);
                state.answers.insert(key, answer);
                taken = true;
            }
        }
        if taken {
            self.answered.notify_waiters();
            self.changed.notify_one();
        }
        taken
    }

    /// Withdraws the question `key`: its asker no longer waits for the answer.
    pub(crate) fn withdraw(&self, key: &str) {
        let mut state = self.state();
        state.waiting.retain(|(waiting, _)| waiting != key);
        state.answers.remove(key);
        drop(state);
        self.changed.notify_one();
    }

    /// Wakes the task's runner, to write its record again.
    pub(crate) fn poke(&self) {
        self.changed.notify_one();
    }

    /// The questions waiting, in the order asked.
    pub(crate) fn waiting(&self) -> Vec<(String, Question)> {
        self.state().waiting.clone()
    }

    /// Sets the progress message.
    pub(crate) fn set_message(&self, message: String) {
        self.state().message = Some(message);
        self.changed.notify_one();
    }

    /// The progress message.
    pub(crate) fn message(&self) -> Option<String> {
        self.state().message.clone()
    }

    /// Waits for a change: a question asked or answered, a progress message.
    pub(crate) async fn changed(&self) {
        self.changed.notified().await;
    }
}
