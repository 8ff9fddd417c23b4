import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, in ticks. */
  ticks: number;
}

/** /proc/<pid>/stat, or null when the process is gone (a renderer may exit at any time). */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state, ppid (field 4) ... utime (14), stime (15); here 0-based from state.
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The process and all its descendants, as they are now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const stat = procStat(pid);
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index] ?? -1) ?? []));
  return tree;
}

/** Direct children of `pid` now. */
export function childPids(pid: number): number[] {
  return allPids().filter((child) => procStat(child)?.ppid === pid);
}

/** The process's arguments joined by spaces; null when it is gone. */
export function commandLineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return null;
  }
}

/** A CPU reading in progress; `stop` answers the busy time since `start`, as % of one core. */
interface CpuMeter {
  stop(): number;
}

/**
 * Measures the CPU time of the processes `pids` names (asked again at the end, so processes that
 * appeared meanwhile count from zero). A process that exits before the end loses its time: for a
 * browser that is the odd renderer, a fraction of a percent.
 */
export function startCpuMeter(pids: () => number[]): CpuMeter {
  const startedAt = performance.now();
  const before = new Map(pids().map((pid) => [pid, procStat(pid)?.ticks ?? 0]));
  return {
    stop() {
      const seconds = (performance.now() - startedAt) / 1000;
      let ticks = 0;
      for (const pid of pids()) {
        const now = procStat(pid)?.ticks;
        if (now !== undefined) ticks += now - (before.get(pid) ?? 0);
      }
      return (ticks / CLOCK_TICKS / seconds) * 100;
    },
  };
}

/** The whole machine's busy share, as % of all its cores together (/proc/stat). */
export function startMachineMeter(): CpuMeter {
  const read = () => {
    const [, ...values] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
    const numbers = values.map(Number);
    // idle and iowait are the 4th and 5th columns.
    const idle = (numbers[3] ?? 0) + (numbers[4] ?? 0);
    return { idle, total: numbers.reduce((sum, value) => sum + value, 0) };
  };
  const before = read();
  return {
    stop() {
      const after = read();
      const total = after.total - before.total;
      return total > 0 ? (1 - (after.idle - before.idle) / total) * 100 : 0;
    },
  };
}

/** A percentage for the tables: one decimal. */
export const percent = (value: number | null): string => (value === null ? '–' : `${value.toFixed(1)} %`);
