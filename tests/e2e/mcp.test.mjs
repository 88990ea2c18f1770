// voxl's MCP server at /mcp, driven by the MCP SDK's own client over the
// Streamable HTTP transport, with credentials: it lists the tools, takes a
// screenshot, clicks on an application that marks where it was clicked
// (at full size and in a half-size picture), and sees the mark in the
// screenshot the click answers with once the screen settled. Without
// credentials, or from a foreign page, it gets nothing.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";
import { startProbe } from "./input_probe.mjs";

const webRequire = createRequire(path.join(e2e.REPO, "web/package.json"));
const sdk = (p) => import(webRequire.resolve(`@modelcontextprotocol/sdk/${p}`));
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");

const PASSWORD = "mcp-horse-9";
const AUTH = `Basic ${Buffer.from(`voxl:${PASSWORD}`).toString("base64")}`;
const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const RED = [255, 0, 0];

const scope = new e2e.Scope();
let voxl;
let probe;

before(async () => {
  voxl = await e2e.startVoxl(scope, { args: ["--enable-basic-auth", `--basic-auth-password=${PASSWORD}`] });
  probe = await startProbe(scope, voxl.display, { markClicks: true });
}, opts);
after(() => scope.close());

async function connect(headers = { Authorization: AUTH }) {
  const client = new Client({ name: "voxl-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${voxl.origin}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

function imageOf(result) {
  const image = result.content.find((c) => c.type === "image");
  assert.ok(image, `an image in ${JSON.stringify(result).slice(0, 300)}`);
  assert.equal(image.mimeType, "image/png");
  return e2e.decodePng(Buffer.from(image.data, "base64"));
}

function infoOf(result) {
  const text = result.content.find((c) => c.type === "text");
  assert.ok(text, "a text part");
  return JSON.parse(text.text);
}

function pixel(png, x, y) {
  return png.rgb(x, y);
}

function near(got, want, what) {
  assert.ok(got.every((v, i) => Math.abs(v - want[i]) <= 40), `${what}: got ${got}, want ${want}`);
}

test("the SDK's client lists voxl's tools, each with a schema and a description", opts, async () => {
  const client = await connect();
  try {
    assert.equal(client.getServerVersion()?.name, "voxl");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const want of ["screenshot", "click", "move_pointer", "drag", "scroll", "type_text", "press_keys", "computer",
                        "wait_for_settle", "wait_for_change", "cursor_position", "record_start", "record_stop"])
      assert.ok(names.includes(want), `${want} in ${names}`);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.description.length > 20, t.name);
    }
    const click = tools.find((t) => t.name === "click");
    assert.match(click.description, /settled/);
    assert.match(click.description, /since/);
  } finally {
    await client.close();
  }
});

test("a click's settled screenshot shows its effect, also in a half-size picture", opts, async () => {
  const client = await connect();
  try {
    const shot = await client.callTool({ name: "screenshot", arguments: { cursor: false } });
    const before = imageOf(shot);
    assert.equal(before.width, e2e.DESKTOP.width);
    assert.equal(before.height, e2e.DESKTOP.height);
    near(pixel(before, 200, 150), [255, 255, 255], "the probe's window, white before the click");
    assert.equal(typeof infoOf(shot).seq, "number");

    const clicked = await client.callTool({ name: "click", arguments: { x: 200, y: 150, cursor: false } });
    assert.ok(!clicked.isError, JSON.stringify(clicked));
    const info = infoOf(clicked);
    assert.equal(typeof info.seq, "number");
    assert.equal(info.settled, true, JSON.stringify(info));
    assert.equal(info.changed, true, JSON.stringify(info));
    near(pixel(imageOf(clicked), 200, 150), RED, "the mark at the click, in the settled screenshot");
    await probe.waitFor((l) => l.some((x) => x.startsWith("button down 1 200 150")), 20_000, "the click at 200,150");

    // In a picture half the desktop's width, 100,200 is the desktop's 200,400.
    const half = await client.callTool({
      name: "click",
      arguments: { x: 100, y: 200, max_width: e2e.DESKTOP.width / 2, cursor: false },
    });
    assert.ok(!half.isError, JSON.stringify(half));
    const small = imageOf(half);
    assert.equal(small.width, e2e.DESKTOP.width / 2);
    near(pixel(small, 100, 200), RED, "the mark in the half-size picture");
    await probe.waitFor((l) => l.some((x) => x.startsWith("button down 1 201 401") || x.startsWith("button down 1 200 400")),
                        20_000, "the click at the desktop's 200,400");

    // What changed after the screenshot: at once, without polling.
    const changed = await client.callTool({ name: "wait_for_change", arguments: { since: infoOf(shot).seq, timeout_ms: 1000 } });
    assert.equal(infoOf(changed).changed, true);

    const where = await client.callTool({ name: "cursor_position", arguments: { max_width: e2e.DESKTOP.width / 2 } });
    const at = infoOf(where);
    assert.deepEqual([at.x, at.y], [100, 200]);

    const bad = await client.callTool({ name: "click", arguments: { x: 5000, y: 1 } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /outside/);
  } finally {
    await client.close();
  }
});

test("without credentials or from a foreign page /mcp gives nothing", opts, async () => {
  await assert.rejects(connect({}), /401|Unauthorized|auth/i);
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "evil", version: "1" } },
  };
  const res = await fetch(`${voxl.origin}/mcp`, {
    method: "POST",
    headers: {
      Authorization: AUTH,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Origin: "https://evil.example",
    },
    body: JSON.stringify(init),
  });
  assert.equal(res.status, 403);
  const get = await fetch(`${voxl.origin}/mcp`, { headers: { Authorization: AUTH, Accept: "text/event-stream" } });
  assert.equal(get.status, 405, "no server-sent stream");
});
