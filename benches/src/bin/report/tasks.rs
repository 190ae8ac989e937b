//! The tasks table: a tool run as a task (created, then read with `tasks/get` until it has
//! completed), its tasks kept in memory and in Redis, against the same tool called
//! plainly, in the same run (criterion's benchmark `tasks`).

use std::fmt::Write as _;

use crate::data::{Measure, Medians};
use crate::table::{Unit, cell, ratio};

pub(crate) struct TaskRow {
    plain: Option<Measure>,
    memory: Option<Measure>,
    redis: Option<Measure>,
}

/// The row, when the run measured tasks.
pub(crate) fn task_rows(medians: &Medians) -> Vec<TaskRow> {
    let get = |style: &str| medians.get(&format!("tasks/round-trip/{style}"));
    let row = TaskRow {
        plain: get("plain"),
        memory: get("memory"),
        redis: get("redis"),
    };
    if row.plain.is_some() && row.memory.is_some() {
        vec![row]
    } else {
        vec![]
    }
}

/// The table with its paragraph, or nothing when tasks were not measured.
pub(crate) fn task_markdown(out: &mut String, rows: &[TaskRow]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(
        "\nA tool run as a task against the same tool called plainly, at the server's handler \
         (criterion's benchmark `tasks`): \"plain\" is one `tools/call` answered with its \
         result; a task's round trip is the `tools/call` that creates it, then `tasks/get` \
         until it has completed, its result inlined, with the tasks kept in the server's \
         memory, or in Redis (a `redis-server` of the benchmark's own on 127.0.0.1, as \
         replicas share it). Tools that do not run as tasks pay nothing for them: a server \
         whose tools allow no tasks never looks for one.\n\n\
         | benchmark | plain call | task, in memory | task, in Redis | in memory / plain \
         | in Redis / plain |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let over = |of: Option<Measure>| Some(of?.ratio(row.plain?).median);
        let _ = writeln!(
            out,
            "| `add`, one call, handler only | {} | {} | {} | {} | {} |",
            cell(row.plain, Unit::Seconds),
            cell(row.memory, Unit::Seconds),
            cell(row.redis, Unit::Seconds),
            ratio(over(row.memory)),
            ratio(over(row.redis)),
        );
    }
}
