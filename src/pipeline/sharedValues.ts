/**
 * Reading spilled runs back (runSpill.ts): the values their findings share, made shared again.
 */
import type { ReplayedFinding } from "../core/findings.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The values a run's findings share, shared again once read back. `JSON.parse` makes a string of
 * every value, and an object of every threshold and preview: a stuck run's 40,000 findings read
 * back held 40,000 copies of the same file name, detector, threshold name, argument hash and
 * preview (~300 B a finding beside its own message). One per run, so that it holds only that run's
 * values. The findings are fresh from `JSON.parse`, so they are changed in place.
 */
export class SharedValues {
  private readonly strings = new Map<string, string>();
  private readonly objects = new Map<string, object>();

  findings<L extends readonly ReplayedFinding[]>(findings: L): L {
    for (const finding of findings as readonly ReplayedFinding[] as Array<Mutable<ReplayedFinding>>) {
      finding.run = this.string(finding.run);
      if (finding.agent !== null) finding.agent = this.string(finding.agent);
      if (finding.session !== null) finding.session = this.string(finding.session);
      finding.file = this.string(finding.file);
      finding.detector = this.string(finding.detector);
      finding.level = this.string(finding.level);
      finding.tool = this.string(finding.tool);
      finding.argsHash = this.string(finding.argsHash);
      const { threshold, preview } = finding;
      // Keys that tell every value apart (a result of null from one that reads "null").
      finding.threshold = this.object(JSON.stringify([threshold.name, threshold.value]), threshold);
      if (preview !== undefined) finding.preview = this.object(JSON.stringify([preview.args, preview.result, preview.error]), preview);
    }
    return findings;
  }

  private string<S extends string>(value: S): S {
    const known = this.strings.get(value);
    if (known !== undefined) return known as S;
    this.strings.set(value, value);
    return value;
  }

  private object<T extends object>(key: string, value: T): T {
    const known = this.objects.get(key);
    if (known !== undefined) return known as T;
    this.objects.set(key, value);
    return value;
  }
}
