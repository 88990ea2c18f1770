// Debian's nginx as a reverse proxy in front of voxl, for the e2e tests:
// in the foreground, with everything it writes under a folder of the test's.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";

import * as e2e from "./support.mjs";

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));

// One GET past a self-made certificate: { status, headers, body (Buffer) }.
export function get(url, headers = {}) {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { rejectUnauthorized: false, headers, timeout: 30_000, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
  });
}

// Starts nginx with `locations` (the server block's body) on a free port of
// 127.0.0.1, over TLS when `tls`. Ready once `readyPath` answers
// `readyStatus`. Stopping is deferred to `scope`. Returns { port, origin }.
export async function startNginx(scope, dir, { locations, tls = false, readyPath = "/", readyStatus = 200 }) {
  if (!NGINX) throw new Error("nginx is not installed (scripts/setup installs it)");
  const port = await e2e.freePort();
  let listen = `listen 127.0.0.1:${port};`;
  if (tls) {
    const { key, cert } = await e2e.selfSignedCert(dir, "127.0.0.1");
    listen = `listen 127.0.0.1:${port} ssl;\n    ssl_certificate ${cert};\n    ssl_certificate_key ${key};`;
  }
  const conf = `
${process.getuid() === 0 ? "user root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; "" close; }
  server {
    ${listen}
${locations}
  }
}
`;
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child = spawn(NGINX, ["-e", path.join(dir, "error.log"), "-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  scope.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT");
      await e2e.waitChildExit(child, 10_000, "nginx to stop").catch(() => child.kill("SIGKILL"));
    }
  });
  const origin = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  // Ready once the proxy answers (a refused connection means not yet).
  const deadline = Date.now() + e2e.START_TIMEOUT_MS;
  for (;;) {
    try {
      const r = await get(`${origin}${readyPath}`);
      if (r.status === readyStatus) break;
    } catch (e) {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${log}\n${fs.readFileSync(path.join(dir, "error.log"), "utf8")}`);
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${e.message}\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { port, origin };
}

// What many first proxy set-ups look like: nginx at / passes the upgrade
// but not Host, so voxl sees the upstream's Host (nginx's default) and the
// page's Origin is foreign to it.
export async function startDefaultHostProxy(scope, upstreamPort) {
  return startNginx(scope, await e2e.tempDir(scope, "nginx"), {
    locations: `
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
    }`,
  });
}
