//! A task's run: the tool's body, on a tokio task of its own, with a [`Request`] and a
//! [`Session`] of its own. Until the task begins (with the call, or where the body calls
//! `ctx.begin_task()`) the run answers its request as any call does, asking the client
//! in rounds; from then on its questions wait in the task's inbox until `tasks/update`
//! answers them, its progress messages become the task's status message, and its end
//! (a result, an error, a cancellation) is written to the store. What the store is told,
//! and when, is `server/tasks/lifecycle.rs`; this file turns the call's questions and
//! answer into their wire shapes for it.

use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use serde_json::{Map, Value};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::call::rounds::{Question, Round};
use crate::call::session::{Asked, Pending, Request, Session};
use crate::model::{
    ClientInfo, Elicitation, ElicitationRequest, LogLevel, RequestId, Root, SamplingRequest,
    SamplingResponse,
};
use crate::outcome::error::INTERNAL_ERROR;
use crate::protocol::{bridge, questions};
use crate::server::tasks::{Ending, NotStarted, Owner, Record, Running, Tasks};
use crate::server::tool_server::{Answer, Refusal, ToolServer};

/// What the run needs of the request that started it.
pub(crate) struct Origin {
    pub(crate) tool: String,
    pub(crate) request_id: RequestId,
    pub(crate) client_info: Option<ClientInfo>,
    /// The request's round, on protocol 2026-07-28: the questions asked before the
    /// task begins are asked in rounds.
    pub(crate) round: Option<Arc<Round>>,
    /// Whether the request refuses a call that needs a capability the client lacks.
    pub(crate) refuses_missing_capability: bool,
    /// The caller, when the request came with a verified access token.
    pub(crate) auth: Option<Arc<crate::model::Auth>>,
    /// Whom the task will belong to.
    pub(crate) owner: Option<Owner>,
}

/// How the run went on, as the request that started it learns.
pub(crate) enum Start {
    /// The call goes on as the task of this record.
    Task(Box<Record>),
    /// The call ended within its request.
    Finished(Result<Answer, Refusal>),
    /// The task could not begin.
    Refused(NotStarted),
}

/// A started run, as its request holds it: how it went on. Dropped before the task
/// began (the request was cancelled), it cancels the run.
pub(crate) struct Handle {
    start: oneshot::Receiver<Start>,
    run: TaskRequest,
}

impl Handle {
    /// How the run went on: a task, or its end within the request.
    pub(crate) async fn start(&mut self) -> Start {
        match (&mut self.start).await {
            Ok(start) => start,
            Err(_) => Start::Finished(Err(Refusal::Crashed(
                "the task's run ended before it began".to_owned(),
            ))),
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if self.run.0.task.get().is_none() {
            self.run.0.running.cancel.cancel();
        }
    }
}

/// Runs the tool `origin.tool` with `arguments` on a tokio task of its own, beginning
/// the task at once when `begin_now`, or where the body calls `ctx.begin_task()`.
pub(crate) fn spawn(
    server: ToolServer,
    tasks: Arc<Tasks>,
    arguments: Map<String, Value>,
    origin: Origin,
    begin_now: bool,
) -> Handle {
    let (reply, start) = oneshot::channel();
    let run = TaskRequest(Arc::new(Run {
        tasks,
        origin,
        running: Running::default(),
        task: OnceLock::new(),
        watcher: OnceLock::new(),
        reply: Mutex::new(Some(reply)),
    }));
    let handle = Handle {
        start,
        run: run.clone(),
    };
    tokio::spawn(async move {
        if begin_now && run.begin().await.is_err() {
            return;
        }
        let call = server.run_tool(&run.0.origin.tool, arguments, Some(&run));
        let mut call = std::pin::pin!(call);
        let inbox = &run.0.running.inbox;
        let outcome = loop {
            tokio::select! {
                outcome = &mut call => break outcome,
                () = inbox.changed() => {
                    if let Some(id) = run.0.task.get() {
                        sync(&run.0.tasks, id, &run.0.running).await;
                    }
                }
            }
        };
        if let Some(watcher) = run.0.watcher.get() {
            watcher.abort();
        }
        match run.0.task.get() {
            Some(id) => {
                end(&run.0.tasks, id, outcome).await;
                run.0.tasks.ended(id);
            }
            None => {
                if let Some(reply) = run.take_reply() {
                    let _ = reply.send(Start::Finished(outcome));
                }
            }
        }
    });
    handle
}

/// A question as the wire writes it in a task's `inputRequests`.
fn input_request(question: &Question) -> Result<Value, String> {
    let request = questions::input_request(question).map_err(|why| why.to_string())?;
    serde_json::to_value(request).map_err(|why| why.to_string())
}

/// Writes what the running task's inbox holds to its record.
pub(crate) async fn sync(tasks: &Tasks, id: &str, running: &Running) {
    tasks.write_progress(id, running, input_request).await;
}

/// Writes the end of the task `id`, its call's answer as the wire writes it.
async fn end(tasks: &Tasks, id: &str, outcome: Result<Answer, Refusal>) {
    let ending = match outcome {
        Ok(answer) => match serde_json::to_value(bridge::call_result(answer)) {
            Ok(result) => Ending::Completed(result),
            Err(error) => Ending::Failed {
                code: INTERNAL_ERROR,
                message: format!("the result was not written: {error}"),
            },
        },
        Err(Refusal::Cancelled) => Ending::Cancelled,
        Err(Refusal::Call(error)) => {
            let error = bridge::error_data(error);
            Ending::Failed {
                code: error.code.0,
                message: error.message.into_owned(),
            }
        }
        Err(Refusal::Crashed(message)) => Ending::Failed {
            code: INTERNAL_ERROR,
            message,
        },
        Err(Refusal::MissingCapability(_) | Refusal::InputRequired) => Ending::Failed {
            code: INTERNAL_ERROR,
            message: "the task's call was refused".to_owned(),
        },
    };
    tasks.end(id, ending).await;
}

/// A run, shared by its request, its session and its tokio task.
struct Run {
    tasks: Arc<Tasks>,
    origin: Origin,
    running: Running,
    /// The task's id, once it began.
    task: OnceLock<String>,
    /// What watches the task once it began.
    watcher: OnceLock<tokio::task::AbortHandle>,
    /// Tells the request how the run went on; taken once.
    reply: Mutex<Option<oneshot::Sender<Start>>>,
}

/// A run as the call sees its request and its session.
#[derive(Clone)]
struct TaskRequest(Arc<Run>);

impl std::fmt::Debug for TaskRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskRequest")
            .field("task", &self.0.task.get())
            .finish_non_exhaustive()
    }
}

impl TaskRequest {
    fn take_reply(&self) -> Option<oneshot::Sender<Start>> {
        let mut reply = (self.0.reply.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        reply.take()
    }

    /// Whether the task began: the request has been answered with its id.
    fn begun(&self) -> bool {
        self.0.task.get().is_some()
    }

    /// Begins the task: stores its record and answers the request with it.
    async fn begin(&self) -> Result<(), String> {
        let Some(reply) = self.take_reply() else {
            return Ok(());
        };
        let run = &self.0;
        match (run.tasks)
            .start(&run.origin.tool, run.origin.owner.clone(), &run.running)
            .await
        {
            Ok(record) => {
                let _ = run.task.set(record.id.clone());
                let watcher = Arc::clone(&run.tasks).watch(
                    record.id.clone(),
                    run.running.clone(),
                    input_request,
                );
                let _ = run.watcher.set(tokio::spawn(watcher).abort_handle());
                // What the body said before its task began is written now.
                run.running.inbox.poke();
                let _ = reply.send(Start::Task(Box::new(record)));
                Ok(())
            }
            Err(refused) => {
                let message = refused.to_string();
                let _ = reply.send(Start::Refused(refused));
                // The request got the refusal: nothing waits for the body.
                run.running.cancel.cancel();
                Err(message)
            }
        }
    }

    /// Asks the client `question` through the task, and waits for the answer; a body
    /// that stops waiting (a timeout of its own) withdraws the question.
    async fn ask(&self, question: Question) -> Value {
        let inbox = &self.0.running.inbox;
        let key = inbox.ask(question);
        let asking = Withdraw { inbox, key: &key };
        let answer = inbox.answer(&key).await;
        std::mem::forget(asking);
        answer
    }

    /// The round to ask in, before the task begins.
    fn asking_in_rounds(&self) -> Option<&Round> {
        if self.begun() {
            return None;
        }
        self.0.origin.round.as_deref()
    }
}

impl Request for TaskRequest {
    fn cancellation(&self) -> &CancellationToken {
        &self.0.running.cancel
    }

    // Within the task, a tool error about a missing capability is the task's result.
    fn refuses_missing_capability(&self) -> bool {
        !self.begun() && self.0.origin.refuses_missing_capability
    }

    fn session(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn round(&self) -> Option<&Round> {
        self.asking_in_rounds()
    }

    fn runs_as_task(&self) -> bool {
        self.begun()
    }

    fn auth(&self) -> Option<Arc<crate::model::Auth>> {
        self.0.origin.auth.clone()
    }
}

/// Withdraws a question whose asker stopped waiting before the answer came.
struct Withdraw<'a> {
    inbox: &'a crate::server::tasks::Inbox,
    key: &'a str,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        self.inbox.withdraw(self.key);
    }
}

/// No `_meta`: a task's calls see none.
static NO_META: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

impl Session for TaskRequest {
    fn request_id(&self) -> RequestId {
        self.0.origin.request_id.clone()
    }

    fn meta(&self) -> &Map<String, Value> {
        &NO_META
    }

    fn cancellation(&self) -> &CancellationToken {
        &self.0.running.cancel
    }

    fn asked(&self) -> Asked {
        Asked {
            // Progress becomes the task's status message.
            progress: true,
            request_level: None,
            level_per_request: false,
        }
    }

    fn client_info(&self) -> Option<ClientInfo> {
        self.0.origin.client_info.clone()
    }

    fn progress(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Pending<'_, Result<(), String>> {
        let message = message.unwrap_or_else(|| match total {
            Some(total) => format!("{done} of {total}"),
            None => format!("{done}"),
        });
        self.0.running.inbox.set_message(message);
        Box::pin(std::future::ready(Ok(())))
    }

    // A task has no session to send log messages on: the client reads its status.
    fn log(&self, _: LogLevel, _: &str, _: String) -> Pending<'_, Result<(), String>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn sample(&self, request: SamplingRequest) -> Pending<'_, Result<SamplingResponse, String>> {
        if let Some(round) = self.asking_in_rounds() {
            return Box::pin(questions::sample(round, request));
        }
        Box::pin(async move { questions::sampling_of(self.ask(Question::Sampling(request)).await) })
    }

    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> Pending<'_, Result<Elicitation<Value>, String>> {
        if let Some(round) = self.asking_in_rounds() {
            return Box::pin(questions::elicit(round, request));
        }
        Box::pin(async move {
            questions::elicitation_of(self.ask(Question::Elicitation(request)).await)
        })
    }

    fn roots(&self) -> Pending<'_, Result<Vec<Root>, String>> {
        if let Some(round) = self.asking_in_rounds() {
            return Box::pin(questions::roots(round));
        }
        Box::pin(async move { questions::roots_answer(self.ask(Question::Roots).await) })
    }

    fn round(&self) -> Option<&Round> {
        self.asking_in_rounds()
    }

    fn runs_as_task(&self) -> bool {
        self.begun()
    }

    fn begin_task(&self) -> Pending<'_, Result<(), String>> {
        Box::pin(self.begin())
    }
}
