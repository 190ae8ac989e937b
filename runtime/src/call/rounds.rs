//! The rounds of a call on protocol 2026-07-28 (SEP-2322), where a server may not send
//! the client a request during a call.
//!
//! A question the tool asks (`ctx.elicit`, `ctx.sample`, `ctx.roots`) is answered from
//! what the client sent with the call: its `inputResponses`, and the answers of earlier
//! rounds, which come back in the `requestState` the server issued. A question without
//! an answer suspends the tool there; the call then ends with an input-required result
//! that lists every question asked in this run, and the client calls again with the
//! answers. The tool's body runs again from the start in each round, and this time its
//! questions are answered at once.
//!
//! Each question has a key, the name the client answers it by: the one the tool gave it,
//! or `elicitation-1`, `sampling-2`, ... in the order the tool asks. An answer is only
//! taken for the question it was given for: the round remembers a digest of each
//! question asked, and a body that asks something else under the same key next time
//! (one that does not run the same way twice) is asked again.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Waker;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::model::{ElicitationRequest, SamplingRequest};

/// A question for the client: its user (elicitation), its model (sampling), or the
/// roots it shares.
#[derive(Debug, Clone)]
pub(crate) enum Question {
    Elicitation(ElicitationRequest),
    Sampling(SamplingRequest),
    Roots,
}

impl Question {
    /// The question's kind, which default keys are made of.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Elicitation(_) => "elicitation",
            Self::Sampling(_) => "sampling",
            Self::Roots => "roots",
        }
    }

    /// The key the tool gave the question, if it gave one.
    pub(crate) fn given_key(&self) -> Option<&str> {
        match self {
            Self::Elicitation(request) => request.key.as_deref(),
            Self::Sampling(request) => request.key.as_deref(),
            Self::Roots => None,
        }
    }
}

/// What a round hands the next, in the `requestState` the protocol layer seals.
#[derive(Default, Serialize, Deserialize)]
pub(crate) struct Carried {
    /// The answers the tool used, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) answers: BTreeMap<String, Answered>,
    /// The questions asked and not answered yet: the digest of each, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) asked: BTreeMap<String, String>,
    /// The tool's own state (`Context::carry`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) state: Option<Value>,
}

impl std::fmt::Debug for Carried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The keys only: the answers and the state are the client's and the tool's data.
        f.debug_struct("Carried")
            .field("answers", &self.answers.keys().collect::<Vec<_>>())
            .field("asked", &self.asked.keys().collect::<Vec<_>>())
            .field("state", &self.state.is_some())
            .finish()
    }
}

/// An answer the tool used, with the digest of the question it answered.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Answered {
    pub(crate) question: String,
    pub(crate) answer: Value,
}

impl std::fmt::Debug for Answered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The digest only: the answer is the client's.
        f.debug_struct("Answered")
            .field("question", &self.question)
            .finish_non_exhaustive()
    }
}

/// A question asked in this run and not answered.
#[derive(Debug)]
pub(crate) struct Asked {
    pub(crate) key: String,
    pub(crate) digest: String,
    pub(crate) question: Question,
}

/// One round of a call: the answers it has, and the questions its run asks.
pub(crate) struct Round {
    /// The client's answers sent with this call (`inputResponses`).
    responses: Map<String, Value>,
    /// What the earlier rounds carried.
    earlier: Carried,
    now: Mutex<Now>,
    /// Set when the call ended waiting for input.
    suspended: AtomicBool,
    /// Fires when the call's answer is sent: a question still waiting gives up.
    ended: CancellationToken,
}

impl std::fmt::Debug for Round {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The keys only: the responses are the client's.
        f.debug_struct("Round")
            .field("responses", &self.responses.keys().collect::<Vec<_>>())
            .field("earlier", &self.earlier)
            .field("suspended", &self.suspended)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Default)]
struct Now {
    /// How many questions of each kind the run asked without a key of its own.
    counts: BTreeMap<&'static str, u32>,
    used: BTreeMap<String, Answered>,
    asking: Vec<Asked>,
    state: Option<Value>,
    /// The call driver's waker, woken when a question is asked.
    waker: Option<Waker>,
}

impl Round {
    /// A round with the client's `responses` and what the earlier rounds `carried`.
    pub(crate) fn new(responses: Map<String, Value>, carried: Carried) -> Self {
        Self {
            responses,
            earlier: carried,
            now: Mutex::new(Now::default()),
            suspended: AtomicBool::new(false),
            ended: CancellationToken::new(),
        }
    }

    fn now(&self) -> std::sync::MutexGuard<'_, Now> {
        self.now
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The key of `question`: the one the tool gave it, or the next of its kind.
    pub(crate) fn key(&self, question: &Question) -> String {
        if let Some(key) = question.given_key() {
            return key.to_owned();
        }
        let kind = question.kind();
        let mut now = self.now();
        let count = now.counts.entry(kind).or_default();
        *count += 1;
        format!("{kind}-{count}")
    }

    /// The answer to the question `key`, whose digest is `digest`, if the client gave
    /// one for it, in this round or an earlier one.
    pub(crate) fn answer(&self, key: &str, digest: &str) -> Option<Value> {
        let answer = match self.earlier.answers.get(key) {
            Some(earlier) if earlier.question == digest => earlier.answer.clone(),
            _ => {
                let asked = self.earlier.asked.get(key);
                if asked.is_some_and(|asked| asked != digest) {
                    return None;
                }
                self.responses.get(key)?.clone()
            }
        };
        let answered = Answered {
            question: digest.to_owned(),
            answer: answer.clone(),
        };
        self.now().used.insert(key.to_owned(), answered);
        Some(answer)
    }

    /// Records `question`, which has no answer yet, and wakes the call driver, which
    /// ends the call with the questions asked.
    pub(crate) fn ask(&self, key: String, digest: String, question: Question) {
        let mut now = self.now();
        if now.asking.iter().all(|asked| asked.key != key) {
            now.asking.push(Asked {
                key,
                digest,
                question,
            });
        }
        if let Some(waker) = now.waker.take() {
            waker.wake();
        }
    }

    /// Whether the run asked a question that has no answer yet.
    pub(crate) fn is_asking(&self) -> bool {
        !self.now().asking.is_empty()
    }

    /// Wakes `waker` when a question is asked.
    pub(crate) fn watch(&self, waker: &Waker) {
        let mut now = self.now();
        match &now.waker {
            Some(kept) if kept.will_wake(waker) => {}
            _ => now.waker = Some(waker.clone()),
        }
    }

    /// Marks the call as ended waiting for input.
    pub(crate) fn suspend(&self) {
        self.suspended.store(true, Ordering::Release);
    }

    /// Whether the call ended waiting for input, not with its own outcome.
    pub(crate) fn suspended(&self) -> bool {
        self.suspended.load(Ordering::Acquire)
    }

    /// Lets a question still waiting give up: the call's answer is on its way.
    pub(crate) fn end(&self) {
        self.ended.cancel();
    }

    /// Completes when the call's answer is on its way.
    pub(crate) async fn ended(&self) {
        self.ended.cancelled().await;
    }

    /// The tool's own state: set in this run, or else carried from the last round.
    pub(crate) fn state(&self) -> Option<Value> {
        let now = self.now();
        now.state.clone().or_else(|| self.earlier.state.clone())
    }

    /// Keeps the tool's own state for the next round.
    pub(crate) fn carry(&self, state: Value) {
        self.now().state = Some(state);
    }

    /// The questions asked and what the next round needs: the answers used, the
    /// questions' digests and the tool's state.
    pub(crate) fn finish(&self) -> (Vec<Asked>, Carried) {
        let mut now = self.now();
        let asking = std::mem::take(&mut now.asking);
        let asked = (asking.iter())
            .map(|asked| (asked.key.clone(), asked.digest.clone()))
            .collect();
        let carried = Carried {
            answers: std::mem::take(&mut now.used),
            asked,
            state: now.state.take().or_else(|| self.earlier.state.clone()),
        };
        (asking, carried)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elicitation(key: Option<&str>) -> Question {
        let request = ElicitationRequest::with_schema("Your name?", Map::new());
        Question::Elicitation(match key {
            Some(key) => request.with_key(key),
            None => request,
        })
    }

    #[test]
    fn keys_count_each_kind_and_keep_given_ones() {
        let round = Round::new(Map::new(), Carried::default());
        assert_eq!(round.key(&elicitation(None)), "elicitation-1");
        assert_eq!(round.key(&Question::Roots), "roots-1");
        assert_eq!(round.key(&elicitation(Some("user_name"))), "user_name");
        assert_eq!(round.key(&elicitation(None)), "elicitation-2");
    }

    #[test]
    fn an_answer_is_taken_only_for_the_question_it_was_given_for() {
        let mut carried = Carried::default();
        carried
            .asked
            .insert("elicitation-1".into(), "digest-a".into());
        let responses = Map::from_iter([("elicitation-1".to_owned(), Value::from("Ada"))]);
        let round = Round::new(responses, carried);
        assert_eq!(round.answer("elicitation-1", "digest-b"), None);
        assert_eq!(
            round.answer("elicitation-1", "digest-a"),
            Some(Value::from("Ada"))
        );
        let (asking, next) = round.finish();
        assert!(asking.is_empty());
        assert_eq!(next.answers["elicitation-1"].question, "digest-a");
    }

    #[test]
    fn earlier_answers_come_back_and_questions_are_listed_once() {
        let mut carried = Carried::default();
        let earlier = Answered {
            question: "d1".into(),
            answer: Value::from(1),
        };
        carried.answers.insert("step1".into(), earlier);
        carried.state = Some(Value::from("plan"));
        let round = Round::new(Map::new(), carried);
        assert_eq!(round.answer("step1", "d1"), Some(Value::from(1)));
        assert!(!round.is_asking());
        round.ask("step2".into(), "d2".into(), Question::Roots);
        round.ask("step2".into(), "d2".into(), Question::Roots);
        assert!(round.is_asking());
        let (asking, next) = round.finish();
        assert_eq!(asking.len(), 1);
        assert_eq!(next.asked["step2"], "d2");
        assert!(next.answers.contains_key("step1"));
        assert_eq!(next.state, Some(Value::from("plan")));
    }
}
