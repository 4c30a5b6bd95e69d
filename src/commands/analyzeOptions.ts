/** The flags of `looplens analyze` (analyzeCommand.ts), as commander hands them over; `looplens runs` takes them too. */
import type { CommonOptions } from "./common.js";
import type { FailOnOptions } from "./failOn.js";
import type { FilterOptions } from "./filterOptions.js";
import type { OutputOptions } from "./output.js";

export interface AnalyzeOptions extends CommonOptions, FailOnOptions, FilterOptions, OutputOptions {
  format: string;
  all?: boolean;
  verbose?: boolean;
  /** `--no-explain` sets it false. */
  explain?: boolean;
  /** `--no-cache` sets it false. */
  cache?: boolean;
  /** `--no-prompts` sets it false: no run's prompt is shown. */
  prompts?: boolean;
}
