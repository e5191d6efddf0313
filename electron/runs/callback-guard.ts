import { errorMessage } from '../../shared/result.ts';
/**
 * A run's callbacks (progress, request start/end, live events) belong to its UI: one that throws
 * must not stop the run or lose its data. The error is kept (the first few) and the run goes on.
 */
export function guardCallback<A extends unknown[]>(
  fn: ((...a: A) => void) | undefined,
  errors: string[],
): ((...a: A) => void) | undefined {
  return (
    fn &&
    ((...a: A): void => {
      try {
        fn(...a);
      } catch (e) {
        if (errors.length < 5) errors.push(errorMessage(e));
      }
    })
  );
}
