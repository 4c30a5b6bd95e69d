/** Pieces shared by the table report's sections: borderless tables and level colours. */
import type { ChalkInstance } from "chalk";
import Table from "cli-table3";
import type { FindingLevel } from "../core/findings.js";

/** cli-table3 characters for a table without borders (columns separated by one space). */
export const BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "",
};

/** A compact table without borders; the header row is bold when colour is on. */
export function borderlessTable(head: string[], color: boolean): Table.Table {
  return new Table({
    head,
    chars: BORDERLESS,
    style: { head: color ? ["bold"] : [], border: [], "padding-left": 1, "padding-right": 0, compact: true },
  });
}

export function levelColor(chalk: ChalkInstance, level: FindingLevel): (text: string) => string {
  if (level === "abort") return chalk.magenta.bold;
  if (level === "critical") return chalk.red.bold;
  return chalk.yellow;
}
