import "looplens/jest";

test("the stuck fixture is blocked at call 20", async () => {
  await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
  await expect("fixtures/healthy.jsonl").toHaveNoLoopFindings();
});
