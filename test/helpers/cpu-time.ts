/**
 * This process's CPU time, for the tests that tell linear code from quadratic code by timing it. Wall time
 * counts the time other processes hold the cores: on a machine with a load of 15 on 2 cores a 30 ms linear
 * run took over 100 ms of wall time, failing a bound meant for minutes of backtracking. CPU time counts
 * only this process's own work (its helper threads too, such as the collector's, which the work causes).
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU milliseconds `run` takes. */
export function cpuTimed(run: () => unknown): number {
  const start = cpuMs();
  run();
  return cpuMs() - start;
}

/** Busy-waits until this process has spent `ms` more milliseconds of CPU time. */
export function spinCpu(ms: number): void {
  const end = cpuMs() + ms;
  while (cpuMs() < end);
}
