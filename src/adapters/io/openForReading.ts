/** Opening a file that may be missing or unreadable, where that only means "nothing to read". */
import { openSync } from "node:fs";

/** A descriptor of `path` opened for reading, or undefined when it cannot be opened (the caller treats it as absent). */
export function openForReading(path: string): number | undefined {
  try {
    return openSync(path, "r");
  } catch {
    return undefined;
  }
}
