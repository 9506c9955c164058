// The summary the fresh-process benches (activation.mjs, cliStart.mjs) print: median, min and max in ms.
// They run in plain node from scripts/bench.mjs, unbundled, so they cannot import stats.ts; this is
// its `summarize` for them, with the same median (the mean of the two middle samples when even).

/** Sorts `times` in place and returns their median, min and max. */
export function medianOf(times) {
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return { median, min: times[0], max: times.at(-1) };
}
