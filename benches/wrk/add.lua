-- One stateless `tools/call` of `add`, as `http-load` sends it; with TOKEN set, as a
-- client with that access token sends it.
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
local token = os.getenv("TOKEN")
if token and token ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. token
end
