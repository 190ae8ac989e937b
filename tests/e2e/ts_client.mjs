// The official TypeScript MCP SDK's client against one of our servers: it lists the tools
// (the SDK parses the listing with its own schemas, and compiles each output schema), then
// calls every tool once, with arguments made from its input schema, letting the SDK check
// each result's `structuredContent` against the tool's output schema. A tool error result
// is an answer; an exception the SDK throws (a parse or validation error, a timeout) is
// what this reports.
//
//   node ts_client.mjs --modules DIR [--client-name NAME] [--skip TOOL]... \
//       [--args JSON] [--timeout MS] (--url URL | -- COMMAND ARG...)
//
// --modules     the node_modules directory holding @modelcontextprotocol/sdk
//               (scripts/setup-tsclient.sh prints it)
// --client-name the name the client gives in `clientInfo`, which picks the schema profile
//               of a client the server knows (`gemini-cli-mcp-client`, `copilot-cli`)
// --skip        a tool listed but not called (one needing a request the client cannot answer)
// --args        a JSON object of tool name to arguments, used instead of the made ones
// --url         a Streamable HTTP server; otherwise the command after `--` is run over stdio
//
// Prints one JSON report on stdout: {sdk, client, tools, listing, calls, skipped, errors}:
// the names listed, the tools as the SDK parsed them, each call as {tool, arguments,
// isError, structured, text}, each error as {stage, tool, arguments, message}.
// Exits 0 when it could report, 2 on a bad command line.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function usage(message) {
    process.stderr.write(`ts_client: ${message}\n`);
    process.exit(2);
}

function parseArgs(argv) {
    const options = { clientName: "mcp-tool-ts-client", skip: [], args: {}, timeout: 20000 };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const value = () => {
            if (i + 1 >= argv.length) usage(`${arg} needs a value`);
            return argv[++i];
        };
        if (arg === "--") {
            options.command = argv.slice(i + 1);
            break;
        } else if (arg === "--modules") options.modules = value();
        else if (arg === "--client-name") options.clientName = value();
        else if (arg === "--skip") options.skip.push(value());
        else if (arg === "--args") options.args = JSON.parse(value());
        else if (arg === "--timeout") options.timeout = Number(value());
        else if (arg === "--url") options.url = value();
        else usage(`unknown argument ${arg}`);
    }
    if (!options.modules) usage("--modules DIR is required");
    if (!options.url && !(options.command && options.command.length)) usage("give --url URL or -- COMMAND");
    return options;
}

const options = parseArgs(process.argv.slice(2));
const sdkDir = join(options.modules, "@modelcontextprotocol", "sdk");
const sdk = (path) => import(pathToFileURL(join(sdkDir, "dist", "esm", path)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const sdkVersion = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).version;

// Formats the server may check, each with a value that holds it.
const FORMATS = {
    "date-time": "2026-01-02T03:04:05Z",
    date: "2026-01-02",
    time: "03:04:05Z",
    email: "someone@example.com",
    uri: "https://example.com/",
    "uri-reference": "https://example.com/",
    url: "https://example.com/",
    uuid: "67e55044-10b1-426f-9247-bb680e5fe0c8",
    ipv4: "127.0.0.1",
    ipv6: "::1",
    hostname: "example.com",
};

function resolve(schema, root) {
    let seen = 0;
    while (schema && typeof schema === "object" && typeof schema.$ref === "string" && seen++ < 32) {
        const path = schema.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
        let target = root;
        for (const part of path) target = target?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
        if (target === undefined) return {};
        schema = target;
    }
    return schema ?? {};
}

// A value of the type `schema` asks for: its const, its first enum value, or the least
// value of its type that meets its bounds; an object with its required properties only.
function valueFor(schemaIn, root, depth = 0) {
    const schema = resolve(schemaIn, root);
    if (schema === true || typeof schema !== "object" || depth > 16) return null;
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
    for (const key of ["anyOf", "oneOf"]) {
        if (Array.isArray(schema[key]) && schema[key].length) {
            const choice = schema[key].find((s) => resolve(s, root).type !== "null") ?? schema[key][0];
            return valueFor(choice, root, depth + 1);
        }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length) {
        const merged = { ...schema, allOf: undefined };
        for (const part of schema.allOf) {
            const resolved = resolve(part, root);
            Object.assign(merged, resolved, {
                properties: { ...merged.properties, ...resolved.properties },
                required: [...(merged.required ?? []), ...(resolved.required ?? [])],
            });
        }
        delete merged.allOf;
        return valueFor(merged, root, depth + 1);
    }
    let type = schema.type;
    if (Array.isArray(type)) type = type.find((t) => t !== "null") ?? type[0];
    if (!type) type = schema.properties ? "object" : schema.items ? "array" : "string";
    switch (type) {
        case "null":
            return null;
        case "boolean":
            return false;
        case "integer":
        case "number": {
            let n = 1;
            if (typeof schema.minimum === "number") n = Math.max(n, schema.minimum);
            if (typeof schema.exclusiveMinimum === "number") n = Math.max(n, schema.exclusiveMinimum + 1);
            if (typeof schema.maximum === "number") n = Math.min(n, schema.maximum);
            if (typeof schema.exclusiveMaximum === "number") n = Math.min(n, schema.exclusiveMaximum - 1);
            if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) {
                n = Math.ceil(n / schema.multipleOf) * schema.multipleOf;
            }
            return type === "integer" ? Math.ceil(n) : n;
        }
        case "string": {
            if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
            const min = typeof schema.minLength === "number" ? schema.minLength : 1;
            const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
            return "a".repeat(Math.max(0, Math.min(Math.max(min, 1), max)));
        }
        case "array": {
            const count = typeof schema.minItems === "number" ? schema.minItems : 0;
            const items = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
            return Array.from({ length: Math.max(count, items.length) }, (_, i) =>
                valueFor(items[i] ?? schema.items ?? {}, root, depth + 1),
            );
        }
        default: {
            const object = {};
            for (const name of schema.required ?? []) {
                object[name] = valueFor(schema.properties?.[name] ?? {}, root, depth + 1);
            }
            return object;
        }
    }
}

function text(result) {
    const parts = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text);
    return parts.join("\n").slice(0, 500);
}

const report = {
    sdk: sdkVersion,
    client: options.clientName,
    tools: [],
    listing: [],
    calls: [],
    skipped: [],
    errors: [],
};
const client = new Client({ name: options.clientName, version: "1.0.0" }, { capabilities: {} });
const transport = options.url
    ? new StreamableHTTPClientTransport(new URL(options.url))
    : new StdioClientTransport({ command: options.command[0], args: options.command.slice(1), stderr: "inherit" });
const requestOptions = { timeout: options.timeout };

// A tool that must run as a task is called the way the SDK has for it, whose stream ends
// in the result (checked against the output schema as callTool checks it) or an error.
async function callAsTask(name, args) {
    for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, undefined, requestOptions)) {
        if (message.type === "result") return message.result;
        if (message.type === "error") throw message.error;
    }
    throw new Error(`the task stream of ${name} ended without a result or an error`);
}

try {
    await client.connect(transport, requestOptions);
    const tools = [];
    let cursor;
    do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, requestOptions);
        tools.push(...page.tools);
        cursor = page.nextCursor;
    } while (cursor);
    report.tools = tools.map((tool) => tool.name);
    report.listing = tools;

    for (const tool of tools) {
        if (options.skip.includes(tool.name)) {
            report.skipped.push(tool.name);
            continue;
        }
        const args = options.args[tool.name] ?? valueFor(tool.inputSchema, tool.inputSchema);
        try {
            const result =
                tool.execution?.taskSupport === "required"
                    ? await callAsTask(tool.name, args)
                    : await client.callTool({ name: tool.name, arguments: args }, undefined, requestOptions);
            report.calls.push({
                tool: tool.name,
                arguments: args,
                isError: result.isError === true,
                structured: result.structuredContent !== undefined,
                text: text(result),
            });
        } catch (error) {
            report.errors.push({ stage: "tools/call", tool: tool.name, arguments: args, message: String(error?.message ?? error) });
        }
    }
} catch (error) {
    report.errors.push({ stage: "session", tool: null, message: String(error?.stack ?? error) });
} finally {
    await client.close().catch(() => {});
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
