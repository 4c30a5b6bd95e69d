// A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: the
// browser reads commands on fd 3 and writes replies on fd 4, each a JSON message ended by NUL).
// No browser download and no dependency: the system's Chromium (Debian's `chromium`, or
// $CHROMIUM_PATH) does the work. Used by the HTML report's browser tests and scripts/screenshot.mjs.
import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

const NAMES = ["chromium", "chromium-browser", "google-chrome"];

/**
 * The browser to run: $CHROMIUM_PATH, else the first system Chromium on $PATH (Debian's is
 * /usr/bin/chromium), else null.
 */
export function findChromium(env = process.env) {
  const onPath = (env.PATH ?? "").split(delimiter).filter(Boolean).flatMap((folder) => NAMES.map((name) => join(folder, name)));
  for (const path of [env.CHROMIUM_PATH, ...onPath]) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Flags that keep a headless browser quiet and offline here (no sandbox: CI runs as root). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--hide-scrollbars",
  "--remote-debugging-pipe",
];

export async function launchBrowser({ executable = findChromium(), timeoutMs = 30_000 } = {}) {
  if (!executable) throw new Error("no Chromium found: install Debian's `chromium` (apt-get install -y chromium) or set CHROMIUM_PATH");
  const profile = mkdtempSync(join(tmpdir(), "looplens-chromium-"));
  const child = spawn(executable, [...FLAGS, `--user-data-dir=${profile}`, "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const toBrowser = child.stdio[3];
  const fromBrowser = child.stdio[4];
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  let buffer = "";
  fromBrowser.setEncoding("utf8");
  fromBrowser.on("data", (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\0"); end >= 0; end = buffer.indexOf("\0")) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      const waiter = message.id !== undefined ? pending.get(message.id) : undefined;
      if (waiter) {
        pending.delete(message.id);
        if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
        else waiter.resolve(message.result);
      } else for (const listener of listeners) listener(message);
    }
  });
  const failAll = (error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  child.on("exit", (code) => failAll(new Error(`chromium exited (code ${code}): ${stderr.trim().split("\n").slice(-3).join(" / ")}`)));
  child.on("error", (error) => failAll(error));

  function send(method, params = {}, sessionId) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no reply from chromium in ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { method, resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  function waitFor(method, sessionId) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (listeners.delete(listener), reject(new Error(`${method}: not seen in ${timeoutMs} ms`))), timeoutMs);
      const listener = (message) => {
        if (message.method !== method || message.sessionId !== sessionId) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(message.params);
      };
      listeners.add(listener);
    });
  }

  async function newPage({ width = 1200, height = 800, scale = 1 } = {}) {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    const call = (method, params) => send(method, params, sessionId);
    /** Console messages, log entries (CSP reports among them) and uncaught exceptions of the page. */
    const messages = [];
    listeners.add((message) => {
      if (message.sessionId !== sessionId) return;
      const p = message.params;
      if (message.method === "Runtime.consoleAPICalled") messages.push({ kind: "console", level: p.type, text: p.args.map((a) => a.value ?? a.description ?? "").join(" ") });
      if (message.method === "Log.entryAdded") messages.push({ kind: "log", level: p.entry.level, source: p.entry.source, text: p.entry.text });
      if (message.method === "Runtime.exceptionThrown") messages.push({ kind: "exception", level: "error", text: p.exceptionDetails.exception?.description ?? p.exceptionDetails.text });
    });
    await Promise.all([call("Page.enable"), call("Runtime.enable"), call("Log.enable")]);
    // Runs before the page's own script; CSP does not apply to it (it is the browser's, not the page's).
    await call("Page.addScriptToEvaluateOnNewDocument", {
      source: "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI), true);",
    });
    const metrics = (w, h) => call("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: scale, mobile: false });
    await metrics(width, height);
    return {
      messages,
      async goto(url) {
        const loaded = waitFor("Page.loadEventFired", sessionId);
        const { errorText } = await call("Page.navigate", { url });
        if (errorText) throw new Error(`navigating to ${url}: ${errorText}`);
        await loaded;
      },
      /** The value of a JavaScript expression in the page (JSON-serialisable values only). */
      async evaluate(expression) {
        const { result, exceptionDetails } = await call("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
        if (exceptionDetails) throw new Error(`evaluate: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value;
      },
      /** A PNG of the whole page (its full height), at the viewport's width; `fullPage: false`: of the viewport. */
      async screenshot({ fullPage = true } = {}) {
        if (!fullPage) return Buffer.from((await call("Page.captureScreenshot", { format: "png" })).data, "base64");
        const { cssContentSize } = await call("Page.getLayoutMetrics");
        await metrics(width, Math.ceil(cssContentSize.height));
        const { data } = await call("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
        await metrics(width, height);
        return Buffer.from(data, "base64");
      },
    };
  }

  async function close() {
    await send("Browser.close").catch(() => {});
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(profile, { recursive: true, force: true });
  }

  return { newPage, close };
}
