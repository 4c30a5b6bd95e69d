import { analyze } from "looplens";

const report = await analyze("fixtures/ping-pong.jsonl", { failOn: "block" });
if (report.gate?.failed) console.log(report.gate.reasons.join("\n")); // ✖ 1 finding at or above block in 1 run
