// Timing what a page in Chromium shows: the page stamps the frame in which the thing measured was drawn, on the
// wall clock this process reads too (performance.timeOrigin + performance.now()).

/** In the page: resolves with the wall-clock time of the next frame drawn (an animation frame, then a task). */
export const FRAME_DRAWN = `() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0)))`;

/** How long a page may take to show what is measured before the benchmark gives up (rather than hang). */
export const PAINT_TIMEOUT_MS = 30_000;

/** The page's wall-clock time of the frame `mark` resolves with; fails after PAINT_TIMEOUT_MS. */
export function painted(mark: Promise<unknown>, what: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was not painted within ${PAINT_TIMEOUT_MS / 1000} s`)), PAINT_TIMEOUT_MS);
  });
  return Promise.race([mark as Promise<number>, late]).finally(() => clearTimeout(timer));
}
