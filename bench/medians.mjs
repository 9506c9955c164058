// The summary the fresh-process benches (activation.mjs, cliStart.mjs) print: median, min and max in ms.

/** Sorts `times` in place and returns their median, min and max. */
export function medianOf(times) {
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times.at(-1) };
}
