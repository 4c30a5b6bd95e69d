import { expect } from "vitest";

/** The message an assertion (a matcher's promise) failed with; fails the test if it did not fail. */
export async function failureMessage(assertion: Promise<unknown>): Promise<string> {
  const error = await assertion.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  return error!.message;
}
