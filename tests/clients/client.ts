// A client nobody on this project wrote the types of: `openapi-typescript` generated
// `generated/schema.d.ts` from the server's /openapi.json; `tsc --strict` checks this
// file against it; openapi-fetch makes the calls. Usage: node build/client.js URL KEY
// Prints one JSON object with what each call answered (tests/clients/test_generated_clients.py).
import createClient from "openapi-fetch";
import type { paths } from "./generated/schema.js";

declare const process: { argv: string[] }; // (no @types/node for one line)

const [baseUrl, key] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

const keys = await client.GET("/api-keys");
const prefixes: string[] = (keys.data ?? []).map((k) => k.key_prefix);

const search = await client.GET("/v1/skills/search", {
  params: { query: { q: "user profile", integration: "sample", limit: 3 } },
});
const found: string[] = (search.data?.results ?? []).map((r) => `${r.integration}/${r.name}`);

const run = await client.POST("/v1/{integration}/{endpoint}", {
  params: {
    path: { integration: "sample", endpoint: "get_user" },
    header: { "Idempotency-Key": "typescript-dry-run" },
  },
  body: { params: { username: "octo" }, dry_run: true },
});
const dryRun: boolean | undefined = run.data?.dry_run;
const request: Record<string, unknown> | undefined = run.data?.request;

console.log(
  JSON.stringify({
    keys: { status: keys.response.status, prefixes },
    search: { status: search.response.status, found },
    run: { status: run.response.status, dry_run: dryRun, request, error: run.error },
  }),
);
