/** The levels `watch --notify-on` and `--exit-on` name, and the finding level each means (`block` is critical, as in --fail-on). */
import type { FindingLevel } from "../core/findings.js";

export const LEVELS = ["warning", "critical", "block", "abort"] as const;
export type LevelChoice = (typeof LEVELS)[number];
export const LEVEL_OF: Record<LevelChoice, FindingLevel> = { warning: "warning", critical: "critical", block: "critical", abort: "abort" };
