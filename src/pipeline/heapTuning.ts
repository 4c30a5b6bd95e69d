/**
 * V8's young generation grows (doubling its semi-spaces up to 16 MB each) while much of what is
 * allocated survives a scavenge, and reading JSON lines makes a lot of short-lived garbage that
 * survives just long enough: on a 2-core machine the main thread's young generation alone took
 * ~20 MB of peak RSS (bench, real state folder: 104 → 86 MB serial) for no measurable speed (CPU
 * time within noise, 2.46 vs 2.55 s). The growth factor is the one young-generation setting V8 reads
 * after start-up (the sizes are fixed when the isolate is made, which the CLI does not control: a
 * worker's is set through `resourceLimits`, parallel.ts), so analysis keeps it at 1: the semi-spaces
 * stay at their initial size. Process-wide, and idempotent.
 *
 * Starting a worker thread sets V8's flags back to their defaults (Node applies its flags again for
 * the new isolate), which let the main thread's young generation grow to 34 MB beside a worker
 * (bench, real state folder: peak RSS 177–181 MB with one worker): the parallel analysis calls this
 * again once each worker is online.
 */
import { setFlagsFromString } from "node:v8";

export function keepYoungGenerationSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
