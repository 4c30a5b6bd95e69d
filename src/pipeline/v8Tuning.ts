/**
 * V8 settings read after start-up: two heap settings, both for peak RSS, and how much the optimising
 * compiler inlines, for CPU time. Process-wide and idempotent.
 *
 * - Young generation: V8 grows it (doubling its semi-spaces up to 16 MB each) while much of what is
 *   allocated survives a scavenge, and reading JSON lines makes a lot of short-lived garbage that
 *   survives just long enough: on a 2-core machine the main thread's young generation alone took
 *   ~20 MB of peak RSS (bench, real state folder: 104 → 86 MB serial) for no measurable speed (CPU
 *   time within noise, 2.46 vs 2.55 s). The growth factor is the one young-generation setting V8
 *   reads after start-up (the sizes are fixed when the isolate is made, which the CLI does not
 *   control: a worker's is set through `resourceLimits`, parallel.ts), so it stays at 1.
 * - Old generation: after each full GC V8 lets the heap grow to a multiple of what survived, up to
 *   ~3× for a fast mutator. What survives here is small (~30–45 MB on a 1 GB transcript, once
 *   settled runs are handed out), but the garbage promoted between full GCs made the heap 90 MB
 *   and the process 198 MB. Growing by HEAP_GROWING_PERCENT instead: 130–139 MB, but for ~10–15%
 *   more CPU in full GCs (real-shaped folder, serial), where most inputs never come near the
 *   target. So the growth is held once the process is large (`watchHeapPressure`: RSS at or above
 *   TIGHT_RSS_MB, checked a few times a second), and left to V8 until then. Once held, it stays
 *   held: released whenever a full GC brought RSS back below the mark, V8 let the heap grow to ~4×
 *   what survived again, and a Gateway log of 300,000 runs swung between 25 and 75 MB of heap
 *   (peak RSS 152–166 MB; held for good: 115 MB, the same time within noise).
 * Starting a worker thread sets V8's flags back to their defaults (Node applies its flags again for
 * the new isolate), which let the main thread's young generation grow to 34 MB beside a worker
 * (bench, real state folder: peak RSS 177–181 MB with one worker): the parallel analysis calls this
 * again once each worker is online.
 */
import { setFlagsFromString } from "node:v8";

/**
 * Bytecode the optimising compiler may inline into one function (V8's default: 920). An analysis
 * runs for seconds over ~600 hot functions, and with the default budget compiling them took ~0.8 s
 * of CPU on V8's background threads of a 2.5 s run on the real-shaped folder (`--trace-opt`: 1.4 s
 * of compile jobs) — a core's worth that a worker thread then had to share. At 200 the background
 * threads use ~0.5 s, the main thread is no slower, and with a worker the run takes ~10% less wall
 * time (bench/; below ~100 the code itself got slower: many small entries, 1.35 → 1.65 s).
 */
const INLINED_BYTECODE_CUMULATIVE = 200;

/**
 * Inlines less (see INLINED_BYTECODE_CUMULATIVE): set before the hot code is first optimised (the
 * CLI's start) and again once a worker thread is online (a new worker resets V8's flags).
 */
export function compileLess(): void {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`);
}

const HEAP_GROWING_PERCENT = 20;
/**
 * From 64 MB, not 96 as before: the 680 MB folder with a worker peaked at 146–149 MB, now 140–144
 * (4 alternating runs each), the 165 MB folder serially at 111–112, now 92–94, the 1 GB file at
 * 109, now 105–106; times within ±3% (the events folder, which stays under 90 MB, unchanged). The
 * timer fires only when the event loop turns (between a worker's messages, between files read
 * asynchronously), hence the short interval.
 */
const TIGHT_RSS_MB = 64;
const CHECK_MS = 50;

/** Whether the old generation's growth is held (the flag is process-wide, hence module state). */
let growthHeld = false;

function holdGrowth(hold: boolean): void {
  growthHeld = hold;
  // 0 is V8's default: its own factor, from the GC and mutator speeds.
  setFlagsFromString(`--heap-growing-percent=${hold ? HEAP_GROWING_PERCENT : 0}`);
}

/** Whether analysing threads share the cores (the flag is process-wide, hence module state). */
let scavengingAlone = false;

/**
 * Scavenges on the allocating thread alone, once worker threads analyse beside the main thread. A
 * scavenge hands parts of its work to V8's helper threads and waits for them; with every core
 * analysing, it waited for a core to come free: with one worker, the real-shaped folder of the
 * bench took 3-4% less wall time without the helpers (1.94 vs 2.02 s, medians of 3 alternating
 * runs), and a serial run was no faster with them. Applies to every isolate of the process.
 */
export function scavengeAlone(): void {
  scavengingAlone = true;
  setFlagsFromString("--no-parallel-scavenge");
}

/** Back to V8's parallel scavenges once the main thread analyses alone again (the report). */
export function scavengeWithHelpers(): void {
  scavengingAlone = false;
  setFlagsFromString("--parallel-scavenge");
}

/** For analysis that streams (and again once a worker is online: it resets V8's flags). */
export function tuneHeapForStreaming(): void {
  compileLess();
  keepYoungGenerationSmall();
  holdGrowth(growthHeld);
  if (scavengingAlone) scavengeAlone();
}

/**
 * Holds the old generation's growth from the moment the process's RSS reaches TIGHT_RSS_MB; returns
 * the function that stops watching (and gives the growth back to V8).
 */
function watchHeapPressure(): () => void {
  const timer = setInterval(() => {
    if (!growthHeld && process.memoryUsage.rss() >= TIGHT_RSS_MB * 2 ** 20) holdGrowth(true);
  }, CHECK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (growthHeld) holdGrowth(false);
  };
}

/**
 * Holds the old generation's growth if the process has reached TIGHT_RSS_MB: `watchHeapPressure`'s
 * check, for a process that is idle most of the time (`looplens watch`), made after each piece of
 * work instead of on a timer. The timer woke an idle watch 20 times a second, which was half of its
 * idle CPU (an empty folder watched: 18 vs 8 clock ticks in 20 s).
 */
export function holdGrowthIfLarge(): void {
  if (!growthHeld && process.memoryUsage.rss() >= TIGHT_RSS_MB * 2 ** 20) holdGrowth(true);
}

/** Runs `work` with the heap's growth watched (`watchHeapPressure`), and given back to V8 after it. */
export async function withHeapWatched<T>(work: () => Promise<T>): Promise<T> {
  const stopWatching = watchHeapPressure();
  try {
    return await work();
  } finally {
    stopWatching();
  }
}

/** The young generation stays at its initial size (see the module comment): analysis that streams. */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
