/**
 * CPU and memory of another process, read from /proc (Linux): what lets two processes be
 * compared over the same window without either measuring itself.
 */
import { readFile } from 'node:fs/promises';

/** USER_HZ: the unit of utime/stime. 100 on every Linux build Node supports. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * utime and stime (fields 14 and 15) of a /proc/PID/stat line. The command name (field 2) may
 * hold spaces and parentheses, so fields are counted from the LAST ')'.
 */
export function parseProcStat(text: string): { utimeTicks: number; stimeTicks: number } {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/PID/stat line: no ")" after the command name');
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const utimeTicks = Number(rest[14 - 3]);
  const stimeTicks = Number(rest[15 - 3]);
  if (!Number.isFinite(utimeTicks) || !Number.isFinite(stimeTicks))
    throw new Error('not a /proc/PID/stat line: utime/stime are not numbers');
  return { utimeTicks, stimeTicks };
}

/** VmRSS of a /proc/PID/status text, in bytes. */
export function parseVmRss(text: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(text);
  if (!match) throw new Error('no VmRSS line in /proc/PID/status (has the process exited?)');
  return Number(match[1]) * 1024;
}

/** utime + stime of /proc/PID/stat in seconds, each part too, and performance.now() when read. */
export async function sampleCpu(pid: number) {
  const { utimeTicks, stimeTicks } = parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  return {
    cpuSeconds: (utimeTicks + stimeTicks) / CLOCK_TICKS_PER_SECOND,
    userSeconds: utimeTicks / CLOCK_TICKS_PER_SECOND,
    systemSeconds: stimeTicks / CLOCK_TICKS_PER_SECOND,
    atMs: performance.now(),
  };
}

export async function sampleRss(pid: number): Promise<number> {
  return parseVmRss(await readFile(`/proc/${pid}/status`, 'utf8'));
}

/** System-wide 1-minute load average, to note how busy the shared machine was. */
export async function loadAverage(): Promise<number> {
  const text = await readFile('/proc/loadavg', 'utf8').catch(() => '');
  return Number(text.split(' ')[0] ?? Number.NaN);
}
