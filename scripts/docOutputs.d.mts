// Types of scripts/docOutputs.mjs for the test that checks the documents (test/docs/docOutputs.test.ts).
export interface MarkedBlock {
  readonly command: string;
  readonly lines: readonly [number, number] | undefined;
  readonly language: string;
  /** What the block holds. */
  readonly text: string;
  readonly index: number;
  readonly length: number;
}
export function documents(root?: string): string[];
export function markedBlocks(text: string): MarkedBlock[];
export function expectedText(block: Pick<MarkedBlock, "command" | "lines" | "language">, cacheDir: string, root?: string): string;
export function checkOutputs(root?: string): Array<MarkedBlock & { readonly file: string; readonly expected: string }>;
