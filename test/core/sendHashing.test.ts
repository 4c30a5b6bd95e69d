/** Outbound sends: which calls are sends, and volatile per-call ids left out of their result hash. */
import { describe, expect, it } from "vitest";
import { isOutboundSend } from "../../src/core/hashing.js";
import { hashing } from "../helpers/replay.js";

const SEND_ACTIONS = ["send", "broadcast", "reply", "thread-reply", "sendWithEffect", "sendAttachment", "upload-file", "sticker", "poll"];
const CHANNEL_TOOLS = ["telegram", "discord", "slack", "whatsapp", "signal", "imessage", "msteams", "googlechat", "matrix", "mattermost"];
const VOLATILE_KEYS = [
  "messageId", "message_id", "messageIds", "platformMessageId", "platformMessageIds", "fileId", "file_id", "fileKey",
  "pollId", "poll_id", "receipt", "runId", "idempotencyKey", "ts", "timestamp", "sentAt", "deliveredAt", "createdAt",
];

const sendArgs = { action: "send", to: "telegram:1", text: "hi" };
const resultHash = (details: unknown, tool = "message", args: unknown = sendArgs, text = "sent") =>
  hashing.outcomeHash(tool, args, { kind: "result", value: { content: [{ type: "text", text }], details } }, "text").resultHash;

describe("which calls are outbound sends", () => {
  it("sessions_send always", () => {
    expect(isOutboundSend("sessions_send", undefined)).toBe(true);
    expect(isOutboundSend("sessions_send", { action: "read" })).toBe(true);
  });

  it("message only with a send action", () => {
    for (const action of SEND_ACTIONS) expect(isOutboundSend("message", { action })).toBe(true);
    for (const args of [{ action: "read" }, { action: "react" }, { action: "Send" }, {}, undefined]) {
      expect(isOutboundSend("message", args)).toBe(false);
    }
  });

  it("channel tools with no action or a send action", () => {
    for (const tool of CHANNEL_TOOLS) {
      expect(isOutboundSend(tool, { to: "x" })).toBe(true);
      expect(isOutboundSend(tool, { action: "reply" })).toBe(true);
      expect(isOutboundSend(tool, { action: "react" })).toBe(false);
    }
  });

  it("never with a non-string action", () => {
    for (const action of [null, 1, ["send"], { send: true }]) {
      expect(isOutboundSend("message", { action })).toBe(false);
      expect(isOutboundSend("telegram", { action })).toBe(false);
    }
  });

  it("not other tools", () => {
    expect(isOutboundSend("email", { action: "send" })).toBe(false);
    expect(isOutboundSend("exec", { action: "send" })).toBe(false);
  });
});

describe("send result hash", () => {
  it("leaves every volatile key out, at every depth, including inside arrays", () => {
    for (const key of VOLATILE_KEYS) {
      const details = (value: string) => ({ ok: true, [key]: value, result: { [key]: value, items: [{ [key]: value, n: 1 }] } });
      expect(resultHash(details("one"))).toBe(resultHash(details("two")));
      expect(resultHash(details("one"))).toBe(resultHash({ ok: true, result: { items: [{ n: 1 }] } }));
    }
  });

  it("is the details only: the content text does not count", () => {
    expect(resultHash({ ok: true }, "message", sendArgs, "sent m-1")).toBe(resultHash({ ok: true }, "message", sendArgs, "sent m-2"));
  });

  it("still sees every other change", () => {
    expect(resultHash({ ok: true })).not.toBe(resultHash({ ok: false }));
    expect(resultHash({ ok: true, chat: { title: "a" } })).not.toBe(resultHash({ ok: true, chat: { title: "b" } }));
  });

  it("drops `id` only on a message-like object", () => {
    const same = (a: unknown, b: unknown) => expect(resultHash({ message: a })).toBe(resultHash({ message: b }));
    const differ = (a: unknown, b: unknown) => expect(resultHash({ message: a })).not.toBe(resultHash({ message: b }));
    for (const marker of [{ direction: "outbound" }, { senderId: "u1" }, { accountId: "acc" }, { conversation: { id: "c" } }]) {
      same({ id: "m1", text: "hi", ...marker }, { id: "m2", text: "hi", ...marker });
    }
    differ({ id: "m1", text: "hi" }, { id: "m2", text: "hi" });
    differ({ id: "m1", direction: "outbound" }, { id: "m2", direction: "outbound" });
    differ({ id: 1, text: "hi", direction: "outbound" }, { id: 2, text: "hi", direction: "outbound" });
    differ({ id: "m1", text: 5, direction: "outbound" }, { id: "m2", text: 5, direction: "outbound" });
    differ({ id: "m1", text: "hi", direction: 1 }, { id: "m2", text: "hi", direction: 1 });
    differ({ id: "m1", text: "hi", conversation: "c" }, { id: "m2", text: "hi", conversation: "c" });
    // The top-level details can be message-like too, and a nested one inside an array.
    expect(resultHash({ id: "m1", text: "hi", senderId: "me" })).toBe(resultHash({ id: "m2", text: "hi", senderId: "me" }));
    same([{ id: "a", text: "t", accountId: "x" }], [{ id: "b", text: "t", accountId: "x" }]);
  });

  it("applies to sessions_send and channel tools without an action", () => {
    expect(resultHash({ ok: true, runId: "r1" }, "sessions_send", { sessionKey: "k" })).toBe(
      resultHash({ ok: true, runId: "r2" }, "sessions_send", { sessionKey: "k" }),
    );
    expect(resultHash({ ok: true, messageId: 1 }, "slack", { to: "#x" })).toBe(resultHash({ ok: true, messageId: 2 }, "slack", { to: "#x" }));
  });

  it("does not apply to non-sends: their volatile-looking keys count", () => {
    expect(resultHash({ messageId: "1" }, "message", { action: "read" })).not.toBe(resultHash({ messageId: "2" }, "message", { action: "read" }));
    expect(resultHash({ ts: 1 }, "slack", { action: "react" })).not.toBe(resultHash({ ts: 2 }, "slack", { action: "react" }));
    expect(resultHash({ ts: 1 }, "message", { action: 7 })).not.toBe(resultHash({ ts: 2 }, "message", { action: 7 }));
  });

  it("leaves the args hash of a send alone", () => {
    expect(hashing.argsHash("message", { ...sendArgs, idempotencyKey: "a" }, "text")).not.toBe(hashing.argsHash("message", { ...sendArgs, idempotencyKey: "b" }, "text"));
  });
});
