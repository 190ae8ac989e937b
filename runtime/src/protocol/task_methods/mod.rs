//! Tasks on the wire (the tasks extension, SEP-2663): a call of a tool that allows
//! tasks answered with a `CreateTaskResult`, and `tasks/get`, `tasks/update` and
//! `tasks/cancel` answered from the server's task store, in rmcp's types.

mod run;

use run::Start;

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    self as sdk, CallToolRequestParams, CallToolResponse, CancelTaskParams, CreateTaskResult,
    DetailedTask, ErrorCode, ErrorData, GetTaskParams, GetTaskResult, InputRequests, Task,
    TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use crate::call::session::Request as _;
use crate::model::{Auth, TaskSupport};
use crate::protocol::request_state::{self, Begun};
use crate::protocol::{bridge, call_reply, peer_session};
use crate::server::scopes::{Target, permits};
use crate::server::tasks::{Lookup, NotStarted, Owner, Record, Status, Tasks, iso8601, now_ms};
use crate::server::tool_server::ToolServer;

/// The JSON-RPC error code of a request refused for its credentials, in the range of
/// errors a server defines (as the HTTP layer's `401` and `403` replies carry it).
const FORBIDDEN: i32 = -32001;

/// The tasks extension's id.
const EXTENSION: &str = sdk::TASKS_EXTENSION_ID;

/// A call of a tool that allows tasks, from a client that declares the extension: run
/// on its own, its request answered with a `CreateTaskResult` once the task begins
/// (with the call, or where the body calls `ctx.begin_task()`), or with the call's
/// own answer when it ends before. `None` when the call runs within its request as any
/// call does (a tool without tasks, or an optional one called by a client without the
/// extension).
pub(crate) async fn call(
    server: &ToolServer,
    tasks: &Arc<Tasks>,
    request: &mut CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let (support, in_body) = {
        let tool = server.find(&request.name)?;
        (tool.task(), tool.task_in_body())
    };
    if support == TaskSupport::Forbidden {
        return None;
    }
    let declared = (context.client_capabilities()).is_some_and(|caps| caps.supports_tasks());
    match support {
        TaskSupport::Optional if !declared => return None,
        TaskSupport::Required if !declared => return Some(Err(task_required(&request.name))),
        _ => {}
    }
    let (auth, owner) = match owner(context, &request.name) {
        Ok(found) => found,
        Err(refused) => return Some(Err(refused)),
    };
    let arguments = request.arguments.take().unwrap_or_default();
    let begun = if in_body {
        let state = request.request_state.as_deref();
        let responses = request.input_responses.take();
        let subject = ("tools/call", &*request.name);
        match request_state::begin(
            &server.shared,
            context,
            subject,
            &arguments,
            state,
            responses,
        ) {
            Ok(Some(begun)) => Some(begun),
            // Before its task, a call asks its client as any call does: without rounds,
            // through the session, within the request.
            Ok(None) => {
                request.arguments = Some(arguments);
                return None;
            }
            Err(error) => return Some(Err(error)),
        }
    } else {
        None
    };
    let origin = run::Origin {
        tool: request.name.to_string(),
        request_id: bridge::request_id(&context.id),
        client_info: bridge::client_info(&context.meta, context.peer.peer_info().as_deref()),
        round: begun.as_ref().map(Begun::round),
        refuses_missing_capability: context.refuses_missing_capability(),
        auth,
        owner,
    };
    let mut handle = run::spawn(
        server.clone(),
        Arc::clone(tasks),
        arguments,
        origin,
        !in_body,
    );
    let start = tokio::select! {
        start = handle.start() => start,
        () = context.ct.cancelled() => return Some(Err(call_reply::cancelled(&request.name, context))),
    };
    Some(answer(
        server,
        tasks,
        start,
        begun.as_ref(),
        &request.name,
        context,
    ))
}

/// The caller of a call that will run as a task, and whom the task will belong to; a
/// caller with a token that names no one is refused: its task would belong to no one.
fn owner(
    context: &RequestContext<RoleServer>,
    tool: &str,
) -> Result<(Option<Arc<Auth>>, Option<Owner>), ErrorData> {
    let auth = context.auth();
    let owner = peer_session::owner(context);
    if auth.is_some() && owner.is_none() {
        return Err(ErrorData::invalid_request(
            format!(
                "the tool `{tool}` runs as a task, and a task belongs to the caller that \
                 created it, but this access token names no subject (`sub`) and no client: \
                 use a token issued to a user or a client"
            ),
            None,
        ));
    }
    Ok((auth, owner))
}

/// The answer to a call whose run went on as `start` says.
fn answer(
    server: &ToolServer,
    tasks: &Tasks,
    start: Start,
    begun: Option<&Begun>,
    tool: &str,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    match start {
        Start::Task(record) => Ok(CallToolResponse::Task(CreateTaskResult::new(task(
            &record, tasks,
        )))),
        Start::Finished(outcome) => call_reply::respond(server, outcome, begun, tool, context),
        Start::Refused(busy @ NotStarted::Busy(_)) => Err(ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            busy.to_string(),
            None,
        )),
        Start::Refused(NotStarted::Store(error)) => {
            tracing::error!(%error, tool, "a task could not be stored");
            Err(ErrorData::internal_error(
                NotStarted::Store(error).to_string(),
                None,
            ))
        }
    }
}

/// The refusal of a plain call of a tool that runs only as a task.
fn task_required(tool: &str) -> ErrorData {
    let mut error = ErrorData::missing_required_client_capability(
        sdk::ClientCapabilities::builder().enable_tasks().build(),
    );
    error.message = format!(
        "Missing required client capability: the tool `{tool}` runs only as a task; declare \
         the tasks extension (`{EXTENSION}`) in the client's capabilities and call it again"
    )
    .into();
    error
}

/// A record's task fields, as the wire writes them.
fn task(record: &Record, tasks: &Tasks) -> Task {
    let mut task = Task::new(
        record.id.clone(),
        status(record.status),
        iso8601(record.created_ms),
        iso8601(record.updated_ms),
    )
    .with_ttl_ms(record.ttl_ms)
    .with_poll_interval_ms(millis(tasks.settings.poll_interval));
    if let Some(message) = &record.message {
        task = task.with_status_message(message.clone());
    }
    task
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

fn status(status: Status) -> TaskStatus {
    match status {
        Status::Working => TaskStatus::Working,
        Status::InputRequired => TaskStatus::InputRequired,
        Status::Completed => TaskStatus::Completed,
        Status::Failed => TaskStatus::Failed,
        Status::Cancelled => TaskStatus::Cancelled,
    }
}

/// Who asks about a task: whom the request's tasks belong to, and the caller's verified
/// token on a server with authorization.
pub(crate) struct Asker {
    owner: Option<Owner>,
    auth: Option<Arc<Auth>>,
}

impl Asker {
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        Self {
            owner: peer_session::owner(context),
            auth: context.auth(),
        }
    }
}

/// The record of the task `id` as `asker` may see it, or the error for an unknown or
/// expired one. Another owner's task, live or expired, is answered exactly as an unknown
/// id, so that no one learns that the id exists; the task's own tool's scopes are needed
/// for every operation on it, as for the call that created it.
async fn record(
    server: &ToolServer,
    tasks: &Tasks,
    id: &str,
    asker: &Asker,
) -> Result<Record, ErrorData> {
    let shown: String = id.chars().take(64).collect();
    let admits =
        |owner: Option<&Owner>| Owner::admits(owner, asker.owner.as_ref(), asker.auth.is_some());
    // Ownership first: another owner's task, live or expired, is an unknown id.
    let found = match tasks.lookup(id).await {
        Ok(Lookup::Found(record)) if admits(record.owner()) => Ok(*record),
        Ok(Lookup::Expired(owner)) if admits(owner.as_ref()) => Err(ErrorData::invalid_params(
            format!(
                "the task `{shown}` has expired: a task is kept for {} after it is created; \
                 call the tool again for a new one",
                request_state::words(tasks.settings.ttl)
            ),
            None,
        )),
        Ok(Lookup::Found(_) | Lookup::Expired(_) | Lookup::Unknown) => {
            Err(ErrorData::invalid_params(
                format!(
                    "no task `{shown}`: the id is not one this server gave (or the task ended \
                     so long ago that it is forgotten); use the taskId of a tools/call's \
                     CreateTaskResult"
                ),
                None,
            ))
        }
        Err(error) => {
            tracing::error!(task = %shown, %error, "the task store failed");
            Err(ErrorData::internal_error(
                "the task store failed: try again later",
                None,
            ))
        }
    };
    let record = found?;
    if let Some(auth) = &asker.auth {
        let needed = server.scopes_needed(Target::Tool(&record.tool));
        if !permits(Some(auth), &needed) {
            tracing::info!(
                principal = %auth.principal(),
                needed = needed.join(" "),
                "refused a task operation whose token lacks a scope of the task's tool"
            );
            return Err(ErrorData::new(
                ErrorCode(FORBIDDEN),
                format!(
                    "Forbidden: the task `{shown}` runs a tool that needs an access token \
                     with the scopes {}",
                    needed.join(" ")
                ),
                None,
            ));
        }
    }
    Ok(record)
}

/// `tasks/get`: the task, with its questions, result or error inlined.
pub(crate) async fn get(
    server: &ToolServer,
    tasks: &Tasks,
    params: GetTaskParams,
    asker: &Asker,
) -> Result<GetTaskResult, ErrorData> {
    let mut record = record(server, tasks, &params.task_id, asker).await?;
    let payload = match record.status {
        Status::Working => TaskPayload::Working,
        Status::Cancelled => TaskPayload::Cancelled,
        Status::InputRequired => TaskPayload::InputRequired {
            input_requests: input_requests(&record.input_requests),
        },
        Status::Completed => TaskPayload::Completed {
            result: object(record.result.take()),
        },
        Status::Failed => TaskPayload::Failed {
            error: object(record.error.take()),
        },
    };
    Ok(GetTaskResult::new(DetailedTask::new(
        task(&record, tasks),
        payload,
    )))
}

fn object(value: Option<Value>) -> Map<String, Value> {
    match value {
        Some(Value::Object(object)) => object,
        _ => Map::new(),
    }
}

fn input_requests(stored: &Map<String, Value>) -> InputRequests {
    let mut requests = InputRequests::new();
    for (key, request) in stored {
        match serde_json::from_value(request.clone()) {
            Ok(request) => {
                requests.insert(key.clone(), request);
            }
            Err(error) => tracing::warn!(key, %error, "a stored input request does not read"),
        }
    }
    requests
}

/// `tasks/update`: the client's answers to the task's questions. Answers to questions
/// the task is not waiting on are ignored.
pub(crate) async fn update(
    server: &ToolServer,
    tasks: &Tasks,
    params: UpdateTaskParams,
    asker: &Asker,
) -> Result<(), ErrorData> {
    let record = record(server, tasks, &params.task_id, asker).await?;
    if record.status != Status::InputRequired {
        return Err(ErrorData::invalid_params(
            format!(
                "the task `{}` is not waiting for input: it is {}; send tasks/update only while \
                 tasks/get shows it input_required, with answers under the keys of its \
                 inputRequests",
                record.id,
                record.status.as_str()
            ),
            None,
        ));
    }
    request_state::check_responses(&params.input_responses)?;
    if let Some(running) = tasks.running_here(&record.id) {
        if running.inbox.give(params.input_responses) {
            // Written before the ack, so that the next tasks/get sees the answers taken.
            run::sync(tasks, &record.id, &running).await;
        }
        return Ok(());
    }
    // Another process runs the task: it takes the answers from the store.
    let mut record = record;
    let answers: Map<String, Value> = (params.input_responses.into_iter())
        .filter(|(key, _)| record.input_requests.contains_key(key))
        .collect();
    if answers.is_empty() {
        return Ok(());
    }
    for key in answers.keys() {
        record.input_requests.remove(key);
    }
    if record.input_requests.is_empty() {
        record.status = Status::Working;
    }
    let kept = tasks.store.answer(&record.id, answers).await;
    let written = match kept {
        Ok(()) => tasks.store.put(record).await.map(|_| ()),
        Err(error) => Err(error),
    };
    written.map_err(|error| {
        tracing::error!(task = %params.task_id, %error, "the answers to a task were not stored");
        ErrorData::internal_error("the task store failed: try again later", None)
    })
}

/// `tasks/cancel`: cancels a running task; a task that has ended stays as it ended.
pub(crate) async fn cancel(
    server: &ToolServer,
    tasks: &Tasks,
    params: CancelTaskParams,
    asker: &Asker,
) -> Result<(), ErrorData> {
    let mut record = record(server, tasks, &params.task_id, asker).await?;
    if record.status.is_terminal() {
        return Ok(());
    }
    if let Some(running) = tasks.running_here(&record.id) {
        running.cancel.cancel();
    }
    record.status = Status::Cancelled;
    record.input_requests = Map::new();
    record.updated_ms = now_ms();
    let id = record.id.clone();
    match tasks.store.put(record).await {
        Ok(written) => {
            if written {
                tracing::info!(task = %id, "task cancelled");
            }
            Ok(())
        }
        Err(error) => {
            tracing::error!(task = %id, %error, "the task's cancellation was not stored");
            Err(ErrorData::internal_error(
                "the task store failed: try again later",
                None,
            ))
        }
    }
}
