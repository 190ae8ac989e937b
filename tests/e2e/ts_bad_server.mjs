// A server over stdio, written with the TypeScript SDK's low-level `Server`, that serves
// what the SDK's client refuses, so that tests/e2e/test_ts_client.py shows its driver
// (ts_client.mjs) reports a refusal rather than passing over it:
//
//   node ts_bad_server.mjs MODULES array-root   # an output schema whose root is an array
//   node ts_bad_server.mjs MODULES mismatch     # a result that breaks its output schema
//
// MODULES is the node_modules directory holding @modelcontextprotocol/sdk.

import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, mode] = process.argv.slice(2);
if (!modules || !["array-root", "mismatch"].includes(mode)) {
    process.stderr.write("usage: ts_bad_server.mjs MODULES (array-root | mismatch)\n");
    process.exit(2);
}
const sdk = (path) => import(pathToFileURL(join(modules, "@modelcontextprotocol", "sdk", "dist", "esm", path)).href);
const { Server } = await sdk("server/index.js");
const { StdioServerTransport } = await sdk("server/stdio.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = await sdk("types.js");

const outputSchema =
    mode === "array-root"
        ? { type: "array", items: { type: "integer" } }
        : { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };
const server = new Server({ name: "ts-bad-server", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
        {
            name: "count",
            description: "Counts.",
            inputSchema: { type: "object", properties: {} },
            outputSchema,
        },
    ],
}));
server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: "text", text: '{"count":"three"}' }],
    structuredContent: { count: "three" },
}));
await server.connect(new StdioServerTransport());
