// An OAuth 2.1 authorization server for the end-to-end tests of authorization
// (tests/e2e/test_oauth.py): oidc-provider, installed under target/ by
// scripts/setup-oauth.sh, serving on 127.0.0.1 with the client credentials grant, resource
// indicators (RFC 8707: a token's audience is the resource it was asked for), and JWT access
// tokens.
//
//   node tests/e2e/issuer.mjs MODULES PORT KID
//
// MODULES is the node_modules folder oidc-provider is installed in; PORT the port to serve
// on (0 for any); KID the id of the RSA key it signs with, made anew at each start, so that
// a restart on the same port with another KID is a key rotation. Prints `issuer=URL` once it
// serves, and serves until killed.
//
// Clients (secret: the client id followed by `-secret`):
//   - `mcp-e2e`: every scope the example server knows (`files:read`), each token holding
//     those it asks for, so that one asking for none reaches only what needs none;
//   - `mcp-e2e-short`: the same, its tokens valid for 2 seconds.

import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, port, kid] = process.argv.slice(2);
if (!modules || port === undefined || !kid) {
    console.error("usage: node issuer.mjs MODULES PORT KID");
    process.exit(2);
}
const { default: Provider } = await import(
    pathToFileURL(join(modules, "oidc-provider", "lib", "index.js")).href
);

// The one scope the example server knows (read_attributes needs it).
const SCOPES = ["files:read"];
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const key = { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };

const client = (id, scopes) => ({
    client_id: id,
    client_secret: `${id}-secret`,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: "client_secret_basic",
    scope: scopes.join(" "),
});

function start(issuer, bound, listening) {
    const provider = new Provider(issuer, {
        clients: [
            client("mcp-e2e", SCOPES),
            client("mcp-e2e-short", SCOPES),
        ],
        jwks: { keys: [key] },
        scopes: SCOPES,
        features: {
            devInteractions: { enabled: false },
            clientCredentials: { enabled: true },
            resourceIndicators: {
                enabled: true,
                // Any resource may be asked for: the audience is what the client names.
                getResourceServerInfo: (_ctx, resource, client) => ({
                    scope: SCOPES.join(" "),
                    audience: resource,
                    accessTokenTTL: client.clientId === "mcp-e2e-short" ? 2 : 600,
                    accessTokenFormat: "jwt",
                    jwt: { sign: { alg: "RS256" } },
                }),
            },
        },
    });
    provider.on("server_error", (_ctx, error) => console.error("issuer: server error:", error));
    return provider.listen(bound, "127.0.0.1", listening);
}

// The issuer names its own port, so it is only known once bound: bind, read it, and serve
// on that port (the first listener closed), printing the issuer once it serves.
const probe = (await import("node:net")).createServer();
probe.listen(Number(port), "127.0.0.1", () => {
    const bound = probe.address().port;
    probe.close(() => {
        const issuer = `http://127.0.0.1:${bound}`;
        const server = start(issuer, bound, () => console.log(`issuer=${issuer}`));
        server.on("error", (error) => {
            console.error(`issuer: cannot serve on ${issuer}: ${error.message}`);
            process.exit(1);
        });
    });
});
