import { spawn } from 'node:child_process';
import { summarize } from './stats';

/**
 * What starting ripgrep costs the thread that starts it: node forks the whole process first, so
 * the cost grows with its memory (an extension host often holds some hundreds of MB). search_text
 * starts two ripgrep processes a call, find_files one; the rest of their time is ripgrep's own.
 */
export async function spawnCost(rg: string, runs = 15): Promise<string> {
  const measure = async () => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const child = spawn(rg, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      samples.push(performance.now() - start);
      child.stdout.resume();
      await new Promise((resolve) => child.on('close', resolve));
    }
    return `${summarize(samples).median.toFixed(1)} ms at ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
  };
  const small = await measure();
  // Ballast touched page by page, so the fork has it all to copy the page tables of.
  const ballast = Array.from({ length: 300 }, () => Buffer.alloc(1024 * 1024, 1));
  const large = await measure();
  ballast.length = 0;
  return `Starting ripgrep (spawn alone, on the calling thread; medians of ${runs}): ${small} of resident memory, ${large}`;
}
